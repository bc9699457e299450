// GET / (the schedule page) and its assets: escaping of hostile names, CSP, caching headers of the
// assets, filters, no personal data, ETag/304. The page in a real browser: test/browser/calendar/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildBooking, buildPosition, buildUser, HOSTILE_CALLSIGNS } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

const HOSTILE_POSITION = '<script>alert("pos")</script> Tower & "Apron"';
const HOSTILE_AREA = '"><img src=x onerror=alert(1)>';

const DIVISION = {
  areas: ['Denmark', 'Norway', HOSTILE_AREA],
  users: [buildUser({ first_name: 'Adalbert', last_name: 'Lindqvist', email: 'adalbert@example.org' })],
  positions: [
    ...(['EKCH_TWR', 'EKCH_APP', 'ENGM_TWR'] as const).map((callsign) => buildPosition(callsign, { rating: 'S1' })),
    { callsign: 'EKXX_APN', name: HOSTILE_POSITION, frequency: '121.900', area: HOSTILE_AREA, rating: 'S1' },
  ],
  bookings: [
    buildBooking({ id: 1, time_start: '2026-03-10 18:00:00', time_end: '2026-03-10 20:00:00', tag: 1 }),
    buildBooking({ id: 2, callsign: 'EKCH_APP', time_start: '2026-03-11 10:00:00', time_end: '2026-03-11 12:00:00', tag: 2 }),
    buildBooking({ id: 3, callsign: 'ENGM_TWR', time_start: '2026-03-11 22:00:00', time_end: '2026-03-12 01:00:00', tag: 3 }),
    buildBooking({ id: 4, callsign: 'EKXX_APN', time_start: '2026-03-12 08:00:00', time_end: '2026-03-12 09:00:00' }),
    // Over: ended before now. Beyond the page's 30 days. Deleted.
    buildBooking({ id: 5, time_start: '2026-03-10 08:00:00', time_end: '2026-03-10 10:00:00' }),
    buildBooking({ id: 6, time_start: '2026-04-20 08:00:00', time_end: '2026-04-20 10:00:00' }),
    buildBooking({ id: 7, callsign: 'EKCH_APP', time_start: '2026-03-13 08:00:00', time_end: '2026-03-13 10:00:00', deleted: true }),
  ],
};

const EXPECTED_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The callsigns of the page's rows, in order. */
const callsigns = (html: string) => [...html.matchAll(/<th scope="row"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);

describe('GET / (schedule page)', () => {
  let ctx: TestContext;
  let edit: string;
  const page = (query = '', headers: Record<string, string> = {}) => ctx.request({ method: 'GET', url: `/${query}`, headers });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { SITE_NAME: 'Danish <vACC> & friends' } });
    await ctx.load(DIVISION);
    edit = await ctx.key('edit');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is an HTML page titled SITE_NAME (escaped), with a CSP that allows no inline script', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(res.body).toContain('<title>Danish &lt;vACC&gt; &amp; friends — controller bookings</title>');
    expect(res.body).toContain('<h1>Danish &lt;vACC&gt; &amp; friends</h1>');
    // No inline script or style: every script and stylesheet is a file of this server.
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc="\/assets\/)/);
    // No style element, and no style or event-handler attribute (attribute values, escaped, set aside).
    const tags = res.body.replace(/"[^"]*"/g, '""');
    expect(tags).not.toMatch(/<style|<[^>]*\s(style|on[a-z]+)=/i);
  });

  it('escapes hostile position and area names', async () => {
    const body = (await page()).body;
    expect(body).not.toContain('<script>alert');
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;script&gt;alert(&quot;pos&quot;)&lt;/script&gt; Tower &amp; &quot;Apron&quot;');
    expect(body).toContain(
      '<option value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</option>',
    );
  });

  it('lists the bookings of now and the next 30 days, grouped under a heading per UTC day, with flags', async () => {
    const body = (await page()).body;
    expect(callsigns(body)).toEqual(['EKCH_TWR', 'EKCH_APP', 'ENGM_TWR', 'EKXX_APN']);
    const headings = [...body.matchAll(/<h2 id="day-([\d-]+)">([^<]+)<\/h2>/g)].map((m) => [m[1], m[2]]);
    expect(headings).toEqual([
      ['2026-03-10', 'Tuesday, 10 March 2026'],
      ['2026-03-11', 'Wednesday, 11 March 2026'],
      ['2026-03-12', 'Thursday, 12 March 2026'],
    ]);
    expect(body).toContain('<time datetime="2026-03-11T22:00Z">22:00</time>–<time datetime="2026-03-12T01:00Z">12 Mar 01:00</time>');
    expect(body).toContain('<span class="flag flag-training">Training</span>');
    expect(body).toContain('<span class="flag flag-exam">Exam</span>');
    expect(body).toContain('<span class="flag flag-event">Event</span>');
    expect(body).toContain('<td data-label="Frequency">118.105</td>');
    expect(body).toContain('<th scope="col">Time (UTC)</th>');
    for (const landmark of ['<header>', '<nav aria-label="Filters">', '<main>', '<footer>']) expect(body).toContain(landmark);
  });

  it('filters by area and callsign prefix, and links to the feed with the same filters', async () => {
    const res = await page('?area=Denmark&callsign=ekch');
    expect(callsigns(res.body)).toEqual(['EKCH_TWR', 'EKCH_APP']);
    expect(res.body).toContain('<option value="Denmark" selected>Denmark</option>');
    expect(res.body).toContain('<input id="callsign" name="callsign" value="EKCH"');
    expect(res.body).toContain('href="/calendar/bookings.ics?area=denmark&amp;callsign=EKCH*"');
    expect(callsigns((await page('?area=norway')).body)).toEqual(['ENGM_TWR']);
    expect(callsigns((await page('?callsign=EKCH_T')).body)).toEqual(['EKCH_TWR']);
    // The form sends empty fields for "All areas" and no callsign: no filter.
    expect(callsigns((await page('?area=&callsign=')).body)).toHaveLength(4);

    // The linked feed returns the same bookings.
    const feed = await ctx.request({ method: 'GET', url: '/calendar/bookings.ics?area=denmark&callsign=EKCH*' });
    expect(new Set([...feed.body.matchAll(/^SUMMARY:(\S+)/gm)].map((m) => m[1]))).toEqual(new Set(['EKCH_TWR', 'EKCH_APP']));
  });

  it('says so when nothing matches', async () => {
    const body = (await page('?callsign=ZZZZ')).body;
    expect(callsigns(body)).toEqual([]);
    expect(body).toContain('<p class="empty">No bookings in the next 30 days match these filters.</p>');
  });

  it('refuses every hostile callsign with the page (422), the error next to the callsign field', async () => {
    for (const value of HOSTILE_CALLSIGNS) {
      const hostile = await page(`?callsign=${encodeURIComponent(value)}`);
      expect(hostile.statusCode, JSON.stringify(value)).toBe(422);
      expect(hostile.headers['content-type'], JSON.stringify(value)).toBe('text/html; charset=utf-8');
      expect(hostile.body, JSON.stringify(value)).toMatch(/<p class="error" id="callsign-error">The callsign field [^<]+<\/p>/);
      expect(hostile.body, JSON.stringify(value)).not.toContain('id="area-error"');
    }
  });

  it('responds to a malformed filter with the page (422): the form again, the error next to its field', async () => {
    for (const query of ['?callsign=A*B', `?callsign=${'E'.repeat(70)}`, `?area=${'x'.repeat(200)}`]) {
      const res = await page(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
      expect(res.body).toMatch(/^<!doctype html>/);
      const field = query.startsWith('?area') ? 'area' : 'callsign';
      expect(res.body).toMatch(new RegExp(`id="${field}"[^>]* aria-describedby="${field}-error" aria-invalid="true"`));
      expect(res.body).toMatch(new RegExp(`<p class="error" id="${field}-error">The ${field} field [^<]+</p>`));
      expect(callsigns(res.body)).toEqual([]);
    }
    // What was typed is shown again, escaped.
    expect((await page('?callsign=%22%3E*%3C')).body).toContain('value="&quot;&gt;*&lt;"');
  });

  it('lets the callsign field take exactly what the server accepts', async () => {
    const body = (await page()).body;
    expect(body).toMatch(/<input id="callsign" name="callsign" value="" maxlength="30"/);
    expect((await page(`?callsign=${'E'.repeat(30)}`)).statusCode).toBe(200);
    expect((await page(`?callsign=${'E'.repeat(31)}`)).statusCode).toBe(422);
  });

  it('jumps to today and tomorrow, and lines the days up with the same fixed columns', async () => {
    const body = (await page()).body;
    expect(body).toContain(
      '<nav aria-label="Days" class="days"><ul><li><a href="#day-2026-03-10">Today</a></li><li><a href="#day-2026-03-11">Tomorrow</a></li><li><a href="#day-2026-03-12">Thu 12 Mar</a></li></ul></nav>',
    );
    expect(
      body.match(
        /<colgroup><col class="c-time"><col class="c-callsign"><col class="c-position"><col class="c-frequency"><col class="c-type"><\/colgroup>/g,
      ),
    ).toHaveLength(3);
    // Plain controlling is marked so a phone's card can leave it out.
    expect(body).toMatch(/<tr class="plain" data-start="2026-03-12T08:00Z"/);
    // A filter that leaves nothing today or tomorrow still has both days, saying so.
    const later = (await page('?callsign=EKXX')).body;
    expect([...later.matchAll(/<h2 id="day-([\d-]+)">/g)].map((m) => m[1])).toEqual(['2026-03-10', '2026-03-11', '2026-03-12']);
    expect(later.match(/<p class="none">No bookings.<\/p>/g)).toHaveLength(2);
  });

  it('shows no personal data', async () => {
    const body = (await page()).body;
    for (const secret of ['Adalbert', 'Lindqvist', '@example.org', String(ADA)]) expect(body).not.toContain(secret);
  });

  it('returns 304 for a current If-None-Match, and new bytes once bookings change', async () => {
    const first = await page('?area=Denmark');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await page('?area=DENMARK', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    ctx.setNow(NOW + 60_000);
    const moved = await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: edit, payload: { start_at: '09:00' } });
    expect(moved.statusCode).toBe(200);
    const changed = await page('?area=Denmark', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('<time datetime="2026-03-11T09:00Z">09:00</time>');
  });

  it('drops a booking from the page once it is over, without any write', async () => {
    ctx.setNow(Date.UTC(2026, 2, 10, 20, 1));
    expect(callsigns((await page()).body)).not.toContain('EKCH_TWR');
    ctx.setNow(NOW + 60_000);
  });

  it('serves its stylesheet and script from /assets/ with long caching, an ETag and 304', async () => {
    const body = (await page()).body;
    const css = /<link rel="stylesheet" href="(\/assets\/schedule\.css\?v=[\w-]+)">/.exec(body)?.[1];
    const js = /<script src="(\/assets\/schedule\.js\?v=[\w-]+)" defer><\/script>/.exec(body)?.[1];
    expect(css).toBeDefined();
    expect(js).toBeDefined();
    for (const [url, type] of [
      [css!, 'text/css; charset=utf-8'],
      [js!, 'application/javascript; charset=utf-8'],
    ] as const) {
      const res = await ctx.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      const etag = res.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await ctx.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
    }
    expect((await ctx.request({ method: 'GET', url: '/assets/../package.json' })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: '/assets/nothing.js' })).statusCode).toBe(404);
  });

  it('is in the OpenAPI document with the feed, tagged calendar and public', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/', '/calendar/bookings.ics']) {
      expect(doc.paths[path].get.tags, path).toEqual(['calendar']);
      expect(doc.paths[path].get.security, path).toEqual([]);
    }
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/assets'))).toBe(false);
  });
});
