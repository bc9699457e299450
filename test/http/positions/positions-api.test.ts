// Positions added, changed and removed through the API (contract §17), with their events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

describe('positions through the API', () => {
  let ctx: TestContext;
  let edit: string;
  const positionEvents = async () =>
    (
      await ctx.services.db.kysely
        .selectFrom('events')
        .select(['type', 'body'])
        .where('type', 'like', 'position.%')
        .orderBy('seq')
        .execute()
    ).map((e) => [e.type, (JSON.parse(e.body) as { data: { position: { callsign: string } } }).data.position.callsign]);

  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [buildUser()],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL'), buildPosition('EKCH_GND')],
        bookings: [
          buildBooking({ callsign: 'EKCH_TWR' }),
          buildBooking({ callsign: 'EKCH_GND', time_start: '2020-01-01 10:00:00', time_end: '2020-01-01 11:00:00', deleted: true }),
        ],
      }),
    );
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('adds a position with its area, rating and required facility; the public list shows it at once', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/positions',
      token: edit,
      payload: {
        callsign: 'ekch_f_app',
        name: 'Copenhagen Final',
        frequency: '119.100',
        area: 'denmark',
        rating: 'S3',
        required_facility: 'T2 EKCH APP',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      callsign: 'EKCH_F_APP',
      name: 'Copenhagen Final',
      frequency: '119.100',
      area: 'Denmark',
      rating: 'S3',
      required_facility: 'T2 EKCH APP',
    });
    expect(res.headers.location).toBe('/api/positions/EKCH_F_APP');
    const list = (await ctx.request({ method: 'GET', url: '/api/positions' })).json().data;
    expect(list).toContainEqual({ callsign: 'EKCH_F_APP', name: 'Copenhagen Final', frequency: '119.100' });
  });

  it('refuses a taken callsign with 409', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/positions',
      token: edit,
      payload: { callsign: 'EKCH_TWR', name: 'Again', frequency: '118.105', area: 'Denmark', rating: 'S2' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('EKCH_TWR');
  });

  it.each([
    ['callsign', 'EK', /3 to 30 characters/],
    ['callsign', 'EKCH-TWR', /A-Z, 0-9 and _/],
    ['callsign', 'A'.repeat(31), /3 to 30/],
    ['frequency', '117.975', /118.000 to 136.975/],
    ['frequency', '137.000', /118.000 to 136.975/],
    ['frequency', '118.1', /NNN.NNN/],
    ['area', 'Atlantis', /no area named "Atlantis"/],
    ['rating', 'C2X', /S1 to C3/],
    ['name', ' ', /1 to 100/],
  ])('refuses a bad %s (%s) with 422 naming the field, changing nothing', async (field, value, message) => {
    const payload = {
      callsign: 'ESSA_APP',
      name: 'Stockholm Approach',
      frequency: '123.750',
      area: 'Sweden',
      rating: 'S3',
      [field]: value,
    };
    const res = await ctx.request({ method: 'POST', url: '/api/positions', token: edit, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toEqual([expect.stringMatching(message)]);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/positions' })).json().data.map((p: { callsign: string }) => p.callsign),
    ).not.toContain('ESSA_APP');
  });

  it('changes any field but the callsign', async () => {
    const res = await ctx.request({
      method: 'PATCH',
      url: '/api/positions/ekch_del',
      token: edit,
      payload: { name: 'Kastrup Clearance', frequency: '121.730' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      callsign: 'EKCH_DEL',
      name: 'Kastrup Clearance',
      frequency: '121.730',
      area: 'Denmark',
      rating: 'S1',
    });
    expect(
      (await ctx.request({ method: 'PATCH', url: '/api/positions/EKCH_DEL', token: edit, payload: { callsign: 'X_DEL' } })).statusCode,
    ).toBe(422);
    expect((await ctx.request({ method: 'PATCH', url: '/api/positions/EKXX_DEL', token: edit, payload: { name: 'X' } })).statusCode).toBe(
      404,
    );
  });

  it('responds 404 to a callsign no position can have (a NUL byte, a control character), changing nothing', async () => {
    for (const callsign of ['%00', 'EKCH%00_TWR', '%1F']) {
      const patch = await ctx.request({ method: 'PATCH', url: `/api/positions/${callsign}`, token: edit, payload: { name: 'X' } });
      expect(patch.statusCode, callsign).toBe(404);
      expect((await ctx.request({ method: 'DELETE', url: `/api/positions/${callsign}`, token: edit })).statusCode, callsign).toBe(404);
    }
  });

  it('refuses to remove a position with bookings (409) and removes one with only deleted bookings (204)', async () => {
    const kept = await ctx.request({ method: 'DELETE', url: '/api/positions/EKCH_TWR', token: edit });
    expect(kept.statusCode).toBe(409);
    expect(kept.json().message).toMatch(/EKCH_TWR has 1 booking/);
    const removed = await ctx.request({ method: 'DELETE', url: '/api/positions/EKCH_GND', token: edit });
    expect(removed.statusCode).toBe(204);
    expect(
      (await ctx.request({ method: 'GET', url: '/api/positions' })).json().data.map((p: { callsign: string }) => p.callsign),
    ).not.toContain('EKCH_GND');
    expect((await ctx.request({ method: 'DELETE', url: '/api/positions/EKCH_GND', token: edit })).statusCode).toBe(404);
  });

  it('publishes position.created, position.updated and position.deleted, and audits each', async () => {
    expect(await positionEvents()).toEqual([
      ['position.created', 'EKCH_F_APP'],
      ['position.updated', 'EKCH_DEL'],
      ['position.deleted', 'EKCH_GND'],
    ]);
    const audit = await ctx.services.audit.read({ target: 'position:EKCH_DEL' });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'position.updated',
        before: { name: 'Kastrup Delivery', frequency: '119.905' },
        after: { name: 'Kastrup Clearance', frequency: '121.730' },
      }),
    ]);
  });

  it('needs an edit key to write', async () => {
    const read = await ctx.key('read');
    expect((await ctx.request({ method: 'DELETE', url: '/api/positions/EKCH_DEL', token: read })).statusCode).toBe(403);
    expect((await ctx.request({ method: 'DELETE', url: '/api/positions/EKCH_DEL' })).statusCode).toBe(401);
  });
});
