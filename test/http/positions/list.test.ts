import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildPosition } from '../../support/factories.js';

describe('GET /api/positions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.load({
      areas: ['Denmark', 'Sweden'],
      positions: [
        buildPosition('ESSA_TWR', { frequency: '118.5' }),
        buildPosition('EKCH_TWR'),
        { callsign: 'EKCH_A_GND', name: 'Kastrup Apron', frequency: '121.630', area: 'Denmark', rating: 'S1' },
      ],
    });
  });
  afterAll(() => ctx.close());

  it('lists every position with exactly callsign, name and a three-decimal frequency, sorted by callsign', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { callsign: 'EKCH_A_GND', name: 'Kastrup Apron', frequency: '121.630' },
        { callsign: 'EKCH_TWR', name: 'Kastrup Tower', frequency: '118.105' },
        { callsign: 'ESSA_TWR', name: 'Arlanda Tower', frequency: '118.500' },
      ],
    });
  });

  it('needs no key, and accepts read and edit keys', async () => {
    for (const token of [undefined, await ctx.key('read'), await ctx.key('edit')]) {
      const res = await ctx.request({ method: 'GET', url: '/api/positions', token });
      expect(res.statusCode).toBe(200);
    }
  });

  it('responds to an unknown or malformed key with 401, not a silent fallback', async () => {
    const bogus = 'sector_0123456789abcdef_' + 'A'.repeat(43);
    for (const authorization of [`Bearer ${bogus}`, 'Bearer nonsense', 'Basic dXNlcjpwYXNz']) {
      const res = await ctx.request({ method: 'GET', url: '/api/positions', headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it('sends CORS and an ETag, and responds to If-None-Match with 304', async () => {
    const first = await ctx.request({ method: 'GET', url: '/api/positions', headers: { origin: 'https://division.example' } });
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await ctx.request({ method: 'GET', url: '/api/positions', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('reflects a change made through an import (no stale cache)', async () => {
    const before = await ctx.request({ method: 'GET', url: '/api/positions' });
    await ctx.load({ positions: [{ callsign: 'ESSA_TWR', name: 'Stockholm Tower', frequency: '118.505', area: 'Sweden' }] });
    const after = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().data[2]).toEqual({ callsign: 'ESSA_TWR', name: 'Stockholm Tower', frequency: '118.505' });
  });
});

describe('a position whose frequency is not known', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    // A position moved from Control Center without a frequency comes so (contract §19).
    await ctx.load({ areas: ['Denmark'], positions: [buildPosition('EKCH_TWR', { frequency: '' }), buildPosition('EKCH_DEL')] });
  });
  afterAll(() => ctx.close());

  it('is listed with "" (not a made-up "0.000"), which the OpenAPI document allows', async () => {
    const list = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(list.json().data).toEqual([
      { callsign: 'EKCH_DEL', name: 'Kastrup Delivery', frequency: '119.905' },
      { callsign: 'EKCH_TWR', name: 'Kastrup Tower', frequency: '' },
    ]);
    // A staff change of another field answers the position as it is, the frequency still "".
    const one = await ctx.request({
      method: 'PATCH',
      url: '/api/positions/EKCH_TWR',
      token: await ctx.key('edit'),
      payload: { name: 'Kastrup TWR' },
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ callsign: 'EKCH_TWR', frequency: '' });
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    const patterns = JSON.stringify(doc).match(/"frequency":\{[^}]*"pattern":"((?:[^"\\]|\\.)*)"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(0);
    for (const p of patterns) {
      const pattern = JSON.parse(`"${/"pattern":"((?:[^"\\]|\\.)*)"/.exec(p)![1]}"`) as string;
      expect(new RegExp(pattern).test(''), pattern).toBe(true);
      expect(new RegExp(pattern).test('118.105'), pattern).toBe(true);
    }
  });
});
