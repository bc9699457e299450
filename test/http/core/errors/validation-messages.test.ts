// What a client reads when its input is refused: plain sentences about its own fields, never the
// validator's internals (regular expressions, "must match pattern", "must be null", anyOf
// branches). And spaces around a value are ignored alike in every booking field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { ADA, buildBooking, buildDivision, buildPosition } from '../../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

// Validator speak that must never reach a client (Ajv's words, a regular expression, a schema path).
const INTERNALS =
  /must match|pattern|must be null|anyOf|oneOf|allOf|must NOT|must have required|must be equal|must be (string|integer|number|boolean|array|object)\b|\^|\$\b|\\[dswu]|\[\^|#\/|schema|instancePath|keyword/;

function expectPlainMessages(res: { statusCode: number; body: string }, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
  const body = JSON.parse(res.body) as { message: string; errors?: Record<string, string[]> };
  const messages = [body.message, ...Object.values(body.errors ?? {}).flat()];
  for (const message of messages) {
    expect(message, what).toEqual(expect.any(String));
    expect(message, `${what}: ${res.body}`).not.toMatch(INTERNALS);
  }
  if (res.statusCode === 422) {
    for (const [field, list] of Object.entries(body.errors!)) {
      expect(list.length, `${what}: ${field}`).toBeGreaterThan(0);
      // One statement per problem; never the same field twice over in other words.
      expect(new Set(list).size, `${what}: ${field}`).toBe(list.length);
    }
  }
}

describe('messages of refused input', () => {
  let ctx: TestContext;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        positions: [buildPosition('EKCH_DEL')],
        bookings: [buildBooking({ id: 1, callsign: 'EKCH_DEL', time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' })],
      }),
    );
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('trims spaces around every booking field alike, JSON and form', async () => {
    const json = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: {
        cid: ` ${ADA} `,
        date: ' 20/3/2026 ',
        start_at: '\t10:00',
        end_at: '11:00 ',
        position: ' ekch_del ',
        tag: ' 3 ',
        source: ' discord ',
      },
    });
    expect(json.statusCode, json.body).toBe(201);
    expect(json.json().booking).toMatchObject({
      user_id: ADA,
      callsign: 'EKCH_DEL',
      time_start: '2026-03-20 10:00:00',
      time_end: '2026-03-20 11:00:00',
      event: 1,
      source: 'DISCORD',
    });

    const form = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `cid=+${ADA}+&date=+21/3/2026&start_at=10:00+&end_at=+11:00&position=EKCH_DEL&source=+web+`,
    });
    expect(form.statusCode, form.body).toBe(201);
    expect(form.json().booking).toMatchObject({ time_start: '2026-03-21 10:00:00', source: 'WEB' });

    const patched = await ctx.request({
      method: 'PATCH',
      url: `/api/bookings/${form.json().booking.id}`,
      token: edit,
      payload: { end_at: ' 12:15 ', tag: ' 1' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().booking).toMatchObject({ time_end: '2026-03-21 12:15:00', training: 1 });
  });

  it('counts a value of only spaces as not given, as it does an empty one', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: ADA, date: '   ', start_at: '10:00', end_at: '11:00', position: '  ' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ date: ['The date field is required.'], position: ['The position field is required.'] });
  });

  it('reports a value that is still wrong once trimmed in the field’s own words, once', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: ADA, date: ' 2026-03-20 ', start_at: ' 25:00', end_at: '11:00', position: 'EKCH_DEL', source: ' not valid ' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      date: ['The date field must be a real date in the format d/m/Y, e.g. 24/12/2026.'],
      start_at: ['The start_at field must be a 24-hour time H:i from 00:00 to 23:59, e.g. 09:30.'],
      source: ['The source field must be 1 to 16 characters of A-Z, 0-9, _ and -.'],
    });
  });

  const values: unknown[] = [
    '',
    ' ',
    'x',
    ' 1 ',
    '1/1/2030 ',
    '10:00 ',
    -1,
    0,
    1.5,
    Number.POSITIVE_INFINITY, // 1e400 in JavaScript: sent as JSON null
    99_999_999_999,
    true,
    null,
    [],
    ['10:00'],
    {},
    { a: 1 },
    'a'.repeat(100),
    '\u0000',
  ];
  const fields = ['cid', 'date', 'start_at', 'end_at', 'position', 'tag', 'source', 'extra', 'constructor'];

  it('words every refusal of a booking body plainly, field by field, on create and update', async () => {
    const valid = { cid: ADA, date: '25/3/2026', start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' };
    for (const field of fields) {
      for (const value of values) {
        const payload = JSON.stringify({ ...valid, [field]: value }, (_k, v) => (v === Infinity ? undefined : v));
        for (const [method, url] of [
          ['POST', '/api/bookings/create'],
          ['PATCH', '/api/bookings/1'],
        ] as const) {
          const res = await ctx.request({ method, url, token: edit, headers: { 'content-type': 'application/json' }, payload });
          if (res.statusCode < 400) continue;
          expectPlainMessages(res, `${method} ${field}=${JSON.stringify(value)}`);
        }
      }
    }
    for (const payload of ['[1]', '"x"', '5', 'null', '{"cid": {"a": [1]}}']) {
      expectPlainMessages(
        await ctx.request({
          method: 'POST',
          url: '/api/bookings/create',
          token: edit,
          headers: { 'content-type': 'application/json' },
          payload,
        }),
        payload,
      );
    }
    for (const payload of ['cid[a]=1', 'date[]=1&date[]=2', 'tag[0]=1', 'position[x][y]=1']) {
      expectPlainMessages(
        await ctx.request({
          method: 'POST',
          url: '/api/bookings/create',
          token: edit,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        }),
        payload,
      );
    }
  });

  it('words every refusal of a query or path parameter plainly, on every route', async () => {
    const urls = [
      '/api/bookings?limit=abc',
      '/api/bookings?limit=0',
      '/api/bookings?limit=5000',
      '/api/bookings?limit=1.5',
      '/api/bookings?limit[]=1&limit[]=2',
      `/api/bookings?cid=-1`,
      `/api/bookings?cid=abc`,
      '/api/bookings?cid=99999999999',
      '/api/bookings?callsign=',
      '/api/bookings?callsign=%01',
      `/api/bookings?callsign=${'A'.repeat(40)}`,
      `/api/bookings?cursor=${'a'.repeat(300)}`,
      '/api/bookings?cursor=%00',
      '/api/bookings?from=x&to=y',
      '/api/bookings?from[a]=1',
      '/api/users?include[]=bogus',
      `/api/users?include[]=${'a'.repeat(150)}`,
      '/api/users?include[a]=allUsers',
      '/api/users?include[]=allUsers&onlyAtcActive=maybe',
      '/api/users?include[]=allUsers&onlyAtcActive[]=1&onlyAtcActive[]=0',
      '/api/bookings/abc',
      '/api/bookings/0',
    ];
    for (const url of urls) {
      const res = await ctx.request({ method: 'GET', url, token: edit });
      if (res.statusCode === 404) {
        expect(res.json(), url).toEqual({ message: expect.any(String) });
        continue;
      }
      expectPlainMessages(res, url);
    }
  });

  it('says which query parameter is wrong and why, in the schema’s place', async () => {
    const limit = await ctx.request({ method: 'GET', url: '/api/bookings?limit=abc' });
    expect(limit.json()).toEqual({
      message: 'The limit field must be a whole number.',
      errors: { limit: ['The limit field must be a whole number.'] },
    });
    const big = await ctx.request({ method: 'GET', url: '/api/bookings?limit=5000' });
    expect(big.json().errors).toEqual({ limit: ['The limit field must be at most 1000.'] });
    const callsign = await ctx.request({ method: 'GET', url: '/api/bookings?callsign=%01' });
    expect(callsign.json().errors).toEqual({ callsign: ['The callsign field is not in the accepted format.'] });
  });
});
