// GET /calendar/bookings.ics, read back by an independent iCalendar parser (ical.js) and checked
// byte by byte against RFC 5545's rules: CRLF, 75-octet folding that never splits a character,
// TEXT escaping, stable UIDs, growing SEQUENCE, cancelled deletions, filters, ETag/304.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildBooking, buildPosition, buildUser, HOSTILE_CALLSIGNS } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const DAY = 86_400_000;

// A position name with everything TEXT must escape (, ; \ and a line break), characters of two,
// three and four octets, and long enough that its line is folded several times.
const HOSTILE_NAME = `Kø🛫benhavn, Nord; Øst \\ Vest\nSecond line ${'ø😀✈'.repeat(12)}`;

const DIVISION = {
  areas: ['Denmark', 'Norway'],
  users: [
    buildUser({ id: ADA, first_name: 'Adalbert', last_name: 'Lindqvist', email: 'adalbert@example.org' }),
    buildUser({ id: BO, first_name: 'Borghild', last_name: 'Bergström', email: 'borghild@example.org' }),
  ],
  positions: [
    ...(['EKCH_TWR', 'EKCH_APP', 'EKDK_CTR', 'ENGM_TWR'] as const).map((callsign) => buildPosition(callsign, { rating: 'S1' })),
    { callsign: 'EKXX_FSS', name: HOSTILE_NAME, frequency: '126.655', area: 'Denmark', rating: 'S1' },
  ],
  bookings: [
    buildBooking({ id: 1, user_id: ADA, callsign: 'EKCH_TWR', time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00', tag: 1 }),
    buildBooking({ id: 2, user_id: BO, callsign: 'EKCH_APP', time_start: '2026-03-13 10:00:00', time_end: '2026-03-13 12:00:00', tag: 2 }),
    buildBooking({ id: 3, user_id: ADA, callsign: 'ENGM_TWR', time_start: '2026-03-14 18:00:00', time_end: '2026-03-14 20:00:00', tag: 3 }),
    buildBooking({ id: 4, user_id: BO, callsign: 'EKXX_FSS', time_start: '2026-03-15 08:00:00', time_end: '2026-03-15 09:30:00' }),
    // Five days ago: inside the window (from 7 days ago).
    buildBooking({ id: 5, user_id: ADA, callsign: 'EKCH_TWR', time_start: '2026-03-05 10:00:00', time_end: '2026-03-05 12:00:00' }),
    // Outside the window: ended more than 7 days ago, or starts more than 90 days ahead.
    buildBooking({ id: 6, user_id: ADA, callsign: 'EKDK_CTR', time_start: '2026-02-20 10:00:00', time_end: '2026-02-20 12:00:00' }),
    buildBooking({ id: 7, user_id: ADA, callsign: 'EKDK_CTR', time_start: '2026-07-01 10:00:00', time_end: '2026-07-01 12:00:00' }),
    // Deleted long ago (by the import, whose clock is now): cancelled for a week.
    buildBooking({
      id: 8,
      user_id: BO,
      callsign: 'EKDK_CTR',
      time_start: '2026-03-20 10:00:00',
      time_end: '2026-03-20 12:00:00',
      deleted: true,
    }),
  ],
};

interface Parsed {
  calendar: ICAL.Component;
  events: Map<string, ICAL.Component>;
}

function parse(body: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(body) as unknown[]);
  const events = new Map(calendar.getAllSubcomponents('vevent').map((e) => [String(e.getFirstPropertyValue('uid')), e]));
  return { calendar, events };
}

const prop = (event: ICAL.Component | undefined, name: string): unknown => event?.getFirstPropertyValue(name);
const time = (event: ICAL.Component | undefined, name: string): number => (prop(event, name) as ICAL.Time).toJSDate().getTime();
const uids = (body: string) => [...parse(body).events.keys()].sort();

describe('GET /calendar/bookings.ics', () => {
  let ctx: TestContext;
  let edit: string;
  const feed = (query = '', headers: Record<string, string> = {}) =>
    ctx.request({ method: 'GET', url: `/calendar/bookings.ics${query}`, headers });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { SITE_NAME: 'Danish vACC', SITE_HOST: 'vacc.example.org' } });
    await ctx.load(DIVISION);
    edit = await ctx.key('edit');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is an iCalendar file: content type, VERSION, PRODID, X-WR-CALNAME', async () => {
    const res = await feed();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const { calendar } = parse(res.body);
    expect(calendar.name).toBe('vcalendar');
    expect(prop(calendar, 'version')).toBe('2.0');
    expect(String(prop(calendar, 'prodid'))).toMatch(/^-\/\/Sector\/\/Sector \d+\.\d+\.\d+\/\/EN$/);
    expect(prop(calendar, 'x-wr-calname')).toBe('Danish vACC bookings');
  });

  it('publishes the window from 7 days ago to 90 days ahead, deletions of the last week as cancelled', async () => {
    const { events } = parse((await feed()).body);
    expect([...events.keys()].sort()).toEqual([1, 2, 3, 4, 5, 8].map((id) => `booking-${id}@vacc.example.org`).sort());
    expect(prop(events.get('booking-8@vacc.example.org'), 'status')).toBe('CANCELLED');
    expect(prop(events.get('booking-1@vacc.example.org'), 'status')).toBe('CONFIRMED');
  });

  it('gives each event its times in UTC, SUMMARY with its flag, LOCATION, and a SEQUENCE from 0', async () => {
    const res = await feed();
    const { events } = parse(res.body);
    const twr = events.get('booking-1@vacc.example.org');
    expect(time(twr, 'dtstart')).toBe(Date.UTC(2026, 2, 12, 10));
    expect(time(twr, 'dtend')).toBe(Date.UTC(2026, 2, 12, 12));
    expect(res.body).toContain('\r\nDTSTART:20260312T100000Z\r\nDTEND:20260312T120000Z\r\n');
    expect(time(twr, 'dtstamp')).toBe(NOW);
    expect(time(twr, 'last-modified')).toBe(NOW);
    expect(prop(twr, 'sequence')).toBe(0);
    expect(prop(twr, 'summary')).toBe('EKCH_TWR (Training)');
    expect(prop(twr, 'location')).toBe('Kastrup Tower');
    expect(prop(events.get('booking-2@vacc.example.org'), 'summary')).toBe('EKCH_APP (Exam)');
    expect(prop(events.get('booking-3@vacc.example.org'), 'summary')).toBe('ENGM_TWR (Event)');
    expect(prop(events.get('booking-4@vacc.example.org'), 'summary')).toBe('EKXX_FSS');
  });

  it('escapes , ; \\ and line breaks in TEXT values, which a parser reads back unchanged', async () => {
    const res = await feed();
    const event = parse(res.body).events.get('booking-4@vacc.example.org');
    expect(prop(event, 'location')).toBe(HOSTILE_NAME);
    const unfolded = res.body.replace(/\r\n /g, '');
    expect(unfolded).toContain('\r\nLOCATION:Kø🛫benhavn\\, Nord\\; Øst \\\\ Vest\\nSecond line ø😀✈');
  });

  it('ends every line with CRLF, folds at 75 octets and never splits a UTF-8 character', async () => {
    const res = await feed();
    const raw = res.rawPayload;
    expect(raw.subarray(-2).toString()).toBe('\r\n');
    const lines: Buffer[] = [];
    let start = 0;
    for (let i = raw.indexOf('\r\n'); i !== -1; i = raw.indexOf('\r\n', start)) {
      lines.push(raw.subarray(start, i));
      start = i + 2;
    }
    expect(start).toBe(raw.length);
    const strict = new TextDecoder('utf-8', { fatal: true });
    let folded = 0;
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(75);
      expect(line.includes(0x0a) || line.includes(0x0d)).toBe(false);
      // Each physical line decodes on its own: no multi-byte sequence was cut at a fold.
      expect(() => strict.decode(line)).not.toThrow();
      if (line[0] === 0x20) folded++;
    }
    // The long name was folded, and its continuation lines are where multi-byte characters meet the limit.
    expect(folded).toBeGreaterThan(2);
  });

  it('keeps UIDs across an update, grows SEQUENCE with each change, and cancels a deleted booking', async () => {
    const before = parse((await feed()).body).events.get('booking-2@vacc.example.org');
    expect(prop(before, 'sequence')).toBe(0);

    ctx.setNow(NOW + 60_000);
    const patched = await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: edit, payload: { start_at: '09:00' } });
    expect(patched.statusCode).toBe(200);
    let event = parse((await feed()).body).events.get('booking-2@vacc.example.org');
    expect(prop(event, 'sequence')).toBe(1);
    expect(time(event, 'dtstart')).toBe(Date.UTC(2026, 2, 13, 9));
    expect(time(event, 'last-modified')).toBe(NOW + 60_000);

    ctx.setNow(NOW + 120_000);
    expect((await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: edit, payload: { tag: 3 } })).statusCode).toBe(200);
    event = parse((await feed()).body).events.get('booking-2@vacc.example.org');
    expect(prop(event, 'sequence')).toBe(2);
    expect(prop(event, 'summary')).toBe('EKCH_APP (Event)');

    ctx.setNow(NOW + 180_000);
    expect((await ctx.request({ method: 'DELETE', url: '/api/bookings/2', token: edit })).statusCode).toBe(200);
    event = parse((await feed()).body).events.get('booking-2@vacc.example.org');
    expect(prop(event, 'status')).toBe('CANCELLED');
    expect(prop(event, 'sequence')).toBe(3);

    // A week after the deletion the event is no longer published.
    ctx.setNow(NOW + 180_000 + 7 * DAY + 60_000);
    expect(parse((await feed()).body).events.has('booking-2@vacc.example.org')).toBe(false);
    ctx.setNow(NOW + 180_000);
  });

  it('counts an import that changes a booking in its SEQUENCE', async () => {
    const sequence = async () => prop(parse((await feed()).body).events.get('booking-3@vacc.example.org'), 'sequence');
    expect(await sequence()).toBe(0);
    await ctx.load({ bookings: [{ id: 3, time_end: '2026-03-14 21:00:00' }] });
    expect(await sequence()).toBe(1);
  });

  it('filters by callsign: exact and case-insensitive, or a prefix with *', async () => {
    expect(uids((await feed('?callsign=ekch_twr')).body)).toEqual(['booking-1@vacc.example.org', 'booking-5@vacc.example.org']);
    expect(uids((await feed('?callsign=EKCH')).body)).toEqual([]);
    // Booking 2 (EKCH_APP) was deleted above: still published, as cancelled.
    expect(uids((await feed('?callsign=EKCH_*')).body)).toEqual([
      'booking-1@vacc.example.org',
      'booking-2@vacc.example.org',
      'booking-5@vacc.example.org',
    ]);
    expect(uids((await feed('?callsign=EKCH_TWR&callsign=engm_twr')).body)).toEqual(
      ['booking-1@vacc.example.org', 'booking-3@vacc.example.org', 'booking-5@vacc.example.org'].sort(),
    );
  });

  it('filters by area (repeatable, case-insensitive), and by area and callsign together', async () => {
    expect(uids((await feed('?area=Norway')).body)).toEqual(['booking-3@vacc.example.org']);
    expect(uids((await feed('?area=denmark&area=NORWAY')).body)).toHaveLength(6);
    expect(uids((await feed('?area=Denmark&callsign=EN*')).body)).toEqual([]);
    expect(uids((await feed('?area=Denmark&callsign=EKXX_FSS')).body)).toEqual(['booking-4@vacc.example.org']);
    expect(uids((await feed('?area=Sweden')).body)).toEqual([]);
  });

  it('refuses malformed filters with 422 and a message per field', async () => {
    for (const query of ['?callsign=EK*CH', '?callsign=*', `?callsign=${'A'.repeat(40)}`, '?area=%01', `?${'area=x&'.repeat(21)}`]) {
      const res = await feed(query);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json().message, query).toEqual(expect.any(String));
    }
    const res = await feed('?callsign=EK*CH');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['callsign']);
  });

  it('refuses with 422 a callsign of anything but letters A-Z, digits and _ (docs/calendar.md)', async () => {
    for (const value of HOSTILE_CALLSIGNS) {
      const res = await feed(`?callsign=${encodeURIComponent(value)}`);
      expect(res.statusCode, JSON.stringify(value)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(value)).toEqual(['callsign']);
    }
    expect((await feed('?callsign=ekch_twr&callsign=EK_*')).statusCode).toBe(200);
  });

  it('shows no personal data: no names, emails or CIDs', async () => {
    const body = (await feed()).body;
    for (const secret of ['Adalbert', 'Lindqvist', 'Borghild', 'Bergström', 'example.org>', '@example.org', String(ADA), String(BO)]) {
      expect(body).not.toContain(secret);
    }
  });

  it('returns 304 for a current If-None-Match, and new bytes once bookings change', async () => {
    const first = await feed('?area=Denmark');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await feed('?area=denmark', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const created = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: ADA, date: '25/03/2026', start_at: '10:00', end_at: '11:00', position: 'EKDK_CTR' },
    });
    expect(created.statusCode).toBe(201);
    const changed = await feed('?area=Denmark', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parse(changed.body).events.has(`booking-${created.json().booking.id}@vacc.example.org`)).toBe(true);
  });

  describe('a change committed by another connection', () => {
    let other: Db;
    beforeAll(() => {
      other = openDatabase(ctx.databaseUrl);
    });
    afterAll(async () => {
      await other.close();
    });

    it('is in the next response (the kept bytes are not served past it)', async () => {
      expect(prop(parse((await feed()).body).events.get('booking-1@vacc.example.org'), 'location')).toBe('Kastrup Tower');
      await other.kysely.updateTable('positions').set({ name: 'Kastrup Tårn' }).where('callsign', '=', 'EKCH_TWR').execute();
      // The server notices another connection's commit from its next event-loop turn on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(prop(parse((await feed()).body).events.get('booking-1@vacc.example.org'), 'location')).toBe('Kastrup Tårn');
    });
  });
});
