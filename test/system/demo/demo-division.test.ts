import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoDivision, type DemoData } from '../../../src/features/demo/division.js';
import { parseImport } from '../../../src/features/transfer/import/parse.js';
import { createTestContext, type TestContext } from '../../support/context.js';

// Deliberately not on a 15-minute boundary, so "upcoming" and "on a boundary" are both tested.
const NOW = Date.UTC(2026, 2, 10, 14, 7, 33);
const NOW_ISO = new Date(NOW).toISOString();
const DAY = 86_400_000;
const AREAS = ['Denmark', 'Finland', 'Iceland', 'Norway', 'Sweden'];
const BENCH_SCALE = { users: 10_000, endorsementsPerUser: 3, openTrainings: 2000, bookings: 2000 };

const ms = (ymdHis: string): number => Date.parse(`${ymdHis.replace(' ', 'T')}Z`);
const count = <T>(items: T[], pred: (x: T) => boolean): number => items.filter(pred).length;
const distinct = (items: unknown[]): number => new Set(items).size;

/** Channel names on the 8.33 kHz raster (25 kHz channels included), as controllers write them. */
function isAirbandChannel(frequency: string): boolean {
  if (!/^1\d{2}\.\d{3}$/.test(frequency)) return false;
  const khz = Math.round(Number(frequency) * 1000);
  const ending = khz % 100;
  return khz >= 118_000 && khz <= 136_975 && [0, 5, 10, 15, 25, 30, 35, 40, 50, 55, 60, 65, 75, 80, 85, 90].includes(ending);
}

function expectNoOverlaps(data: DemoData): void {
  const byCallsign = new Map<string, Array<[number, number]>>();
  for (const b of data.bookings) byCallsign.set(b.callsign, [...(byCallsign.get(b.callsign) ?? []), [ms(b.time_start), ms(b.time_end)]]);
  for (const [callsign, slots] of byCallsign) {
    slots.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < slots.length; i++) {
      expect(slots[i]![0], `${callsign} has overlapping bookings`).toBeGreaterThanOrEqual(slots[i - 1]![1]);
    }
  }
}

function expectUniqueNaturalKeys(data: DemoData): void {
  // The importer upserts by these keys: a duplicate would silently merge two generated records.
  expect(distinct(data.users.map((u) => u.id))).toBe(data.users.length);
  expect(distinct(data.positions.map((p) => p.callsign))).toBe(data.positions.length);
  expect(distinct(data.endorsements.map((e) => `${e.user_id}|${e.type}|${e.valid_from}`))).toBe(data.endorsements.length);
  expect(distinct(data.roles.map((r) => `${r.user_id}|${r.area}|${r.role}`))).toBe(data.roles.length);
  expect(distinct(data.trainings.map((t) => `${t.user_id}|${t.area}|${t.created_at}`))).toBe(data.trainings.length);
}

describe('demo division (default scale)', () => {
  const demo = buildDemoDivision({ now: NOW });

  it('is plain JSON in the import format and passes parseImport', () => {
    expect(JSON.parse(JSON.stringify(demo))).toEqual(demo);
    const plan = parseImport(demo);
    expect(plan.users).toHaveLength(demo.users.length);
    expect(plan.bookings).toHaveLength(demo.bookings.length);
    expectUniqueNaturalKeys(demo);
  });

  it('has the size of a small real division', () => {
    expect(demo.areas).toEqual(AREAS);
    expect(demo.users).toHaveLength(300);
    expect(demo.positions.length).toBeGreaterThanOrEqual(55);
    expect(demo.positions.length).toBeLessThanOrEqual(65);
    expect(demo.endorsements.length).toBeGreaterThanOrEqual(200);
    expect(demo.endorsements.length).toBeLessThanOrEqual(600);
    expect(demo.trainings.length).toBeGreaterThanOrEqual(35);
    expect(demo.trainings.length).toBeLessThanOrEqual(45);
    expect(demo.bookings).toHaveLength(150);
  });

  it('is deterministic for a seed, and another seed gives another division', () => {
    expect(buildDemoDivision({ now: NOW, seed: 7 })).toEqual(buildDemoDivision({ now: NOW, seed: 7 }));
    const other = buildDemoDivision({ now: NOW, seed: 8 });
    expect(other.users.map((u) => u.id)).not.toEqual(buildDemoDivision({ now: NOW, seed: 7 }).users.map((u) => u.id));
    expect(buildDemoDivision({ now: NOW, seed: 1 })).toEqual(demo);
  });

  it('has real-looking positions with valid three-decimal airband frequencies', () => {
    for (const p of demo.positions) {
      expect(p.callsign).toMatch(/^(EK|EF|BI|EN|ES)[A-Z]{2}(_[A-Z])?_(DEL|GND|TWR|APP|DEP|CTR)$/);
      expect(isAirbandChannel(p.frequency), `${p.callsign} ${p.frequency}`).toBe(true);
      expect(p.frequency).not.toBe('121.500');
      expect(AREAS).toContain(p.area);
      const kind = p.callsign.slice(p.callsign.lastIndexOf('_') + 1);
      expect(p.rating).toBe({ DEL: 'S1', GND: 'S1', TWR: 'S2', APP: 'S3', DEP: 'S3', CTR: 'C1' }[kind]);
    }
    expect(distinct(demo.positions.map((p) => p.frequency))).toBe(demo.positions.length);
    const byCallsign = new Map(demo.positions.map((p) => [p.callsign, p]));
    expect(byCallsign.get('EKCH_TWR')).toMatchObject({ name: 'Kastrup Tower', area: 'Denmark', required_facility: 'T1 EKCH TWR' });
    expect(byCallsign.get('ESSA_APP')).toMatchObject({ area: 'Sweden', rating: 'S3', required_facility: 'T2 ESSA APP' });
    for (const callsign of ['EKCH_A_GND', 'EKCH_DEL', 'EKDK_CTR', 'ENGM_TWR', 'EFHK_E_APP', 'BIRD_CTR'])
      expect(byCallsign.has(callsign)).toBe(true);
    for (const area of AREAS) expect(count(demo.positions, (p) => p.area === area)).toBeGreaterThanOrEqual(7);
  });

  it('gives the major airports facility requirements that controllers actually hold', () => {
    const required = new Set(demo.positions.flatMap((p) => (p.required_facility ? [p.required_facility] : [])));
    expect([...required].sort()).toEqual(['EFHK', 'EKCH', 'ENGM', 'ESSA'].flatMap((icao) => [`T1 ${icao} TWR`, `T2 ${icao} APP`]).sort());
    const facility = demo.endorsements.filter((e) => e.type === 'facility');
    for (const e of facility) expect(required.has(e.rating!), e.rating!).toBe(true);
    const held = new Set(facility.filter((e) => !e.revoked && (e.valid_to === null || e.valid_to > NOW_ISO)).map((e) => e.rating));
    expect(held.size).toBeGreaterThanOrEqual(6);
  });

  it('has plausible users: CIDs, e-mails, a real rating spread, mostly SCA members, visitors, ATC activity', () => {
    const users = demo.users;
    for (const u of users) {
      expect(u.id).toBeGreaterThanOrEqual(1_000_000);
      expect(u.id).toBeLessThanOrEqual(1_999_999);
      expect(u.email).toMatch(/^[a-z0-9.]+@example\.(org|com)$/);
      expect(u.first_name.length).toBeGreaterThan(1);
      expect(u.last_name.length).toBeGreaterThan(1);
      for (const area of Object.keys(u.atc_active_areas)) expect(AREAS).toContain(area);
    }
    expect(distinct(users.map((u) => u.email))).toBe(users.length);
    const rated = (codes: string[]): number => count(users, (u) => codes.includes(u.rating));
    expect(rated(['S1', 'S2', 'S3'])).toBeGreaterThan(users.length * 0.4);
    expect(rated(['C1', 'C3'])).toBeGreaterThan(users.length * 0.08);
    expect(rated(['C1', 'C3'])).toBeLessThan(rated(['S1', 'S2', 'S3']));
    expect(rated(['I1', 'I3', 'SUP'])).toBeGreaterThan(0);
    expect(rated(['I1', 'I3', 'SUP'])).toBeLessThan(users.length * 0.15);
    const members = users.filter((u) => u.region === 'EMEA' && u.division === 'EUD' && u.subdivision === 'SCA');
    expect(members.length).toBeGreaterThan(users.length * 0.75);
    const visitors = users.filter((u) => u.subdivision !== 'SCA');
    expect(visitors.length).toBeGreaterThan(10);
    expect(distinct(visitors.map((u) => `${u.division}/${u.subdivision}`))).toBeGreaterThan(3);
    const controllers = users.filter((u) => u.rating !== 'OBS');
    expect(count(controllers, (u) => Object.values(u.atc_active_areas).includes(true))).toBeGreaterThan(controllers.length * 0.7);
    expect(users.some((u) => /[æøåöäðþé]/i.test(`${u.first_name}${u.last_name}`))).toBe(true);
  });

  it('has endorsements of every type: current, expired and revoked, all issued in the past', () => {
    const callsigns = new Set(demo.positions.map((p) => p.callsign));
    const userIds = new Set(demo.users.map((u) => u.id));
    for (const type of ['visiting', 'examiner', 'facility', 'solo', 's1'] as const) {
      const of = demo.endorsements.filter((e) => e.type === type);
      expect(of.length, type).toBeGreaterThan(5);
      expect(
        of.some((e) => !e.revoked && (e.valid_to === null || e.valid_to > NOW_ISO)),
        `current ${type}`,
      ).toBe(true);
    }
    for (const e of demo.endorsements) {
      expect(userIds.has(e.user_id)).toBe(true);
      expect(e.valid_from < NOW_ISO).toBe(true);
      if (e.valid_to !== null) expect(e.valid_to > e.valid_from).toBe(true);
      // A revocation has its time, after issue and not in the future; nothing else has one.
      if (e.revoked) expect(e.revoked_at! >= e.valid_from && e.revoked_at! <= NOW_ISO).toBe(true);
      else expect(e.revoked_at).toBeNull();
      if (e.type === 'visiting' || e.type === 'examiner') {
        expect(e.rating).toMatch(/^(S1|S2|S3|C1)$/);
        expect(e.areas.length).toBeGreaterThan(0);
        for (const a of e.areas) expect(AREAS).toContain(a);
      }
      if (e.type === 'solo' || e.type === 's1') {
        expect(e.rating).toBeNull();
        expect(e.positions.length).toBeGreaterThan(0);
        for (const c of e.positions) expect(callsigns.has(c)).toBe(true);
      }
    }
    expect(count(demo.endorsements, (e) => e.valid_to !== null && e.valid_to > NOW_ISO)).toBeGreaterThan(10);
    expect(count(demo.endorsements, (e) => e.valid_to !== null && e.valid_to <= NOW_ISO)).toBeGreaterThan(10);
    expect(count(demo.endorsements, (e) => e.revoked)).toBeGreaterThan(2);
    expect(count(demo.endorsements, (e) => e.valid_to === null && !e.revoked)).toBeGreaterThan(50);
  });

  it('has every role in every area', () => {
    for (const area of AREAS) {
      for (const role of ['Administrator', 'Moderator', 'Mentor', 'Buddy']) {
        expect(
          demo.roles.some((r) => r.area === area && r.role === role),
          `${area} ${role}`,
        ).toBe(true);
      }
    }
  });

  it('has trainings of every type and status, with consistent times', () => {
    const open = demo.trainings.filter((t) => t.status >= 0);
    expect(open).toHaveLength(30);
    expect([...new Set(demo.trainings.map((t) => t.status))].sort()).toEqual([-1, -2, -3, -4, 0, 1, 2, 3].sort());
    expect([...new Set(demo.trainings.map((t) => t.type))].sort()).toEqual([
      'Familiarisation',
      'Fast-track',
      'Refresh',
      'Standard',
      'Transfer',
    ]);
    for (const t of demo.trainings) {
      expect(AREAS).toContain(t.area);
      expect(t.ratings.length).toBeGreaterThan(0);
      expect(t.created_at < NOW_ISO).toBe(true);
      if (t.status === 0) expect(t.started_at).toBeNull();
      if (t.status > 0) expect(t.started_at).not.toBeNull();
      if (t.started_at !== null) expect(t.started_at > t.created_at && t.started_at < NOW_ISO).toBe(true);
    }
  });

  it('has upcoming bookings within two weeks, on 15-minute boundaries, never overlapping on a position', () => {
    const callsigns = new Set(demo.positions.map((p) => p.callsign));
    const userIds = new Set(demo.users.map((u) => u.id));
    for (const b of demo.bookings) {
      const start = ms(b.time_start);
      const end = ms(b.time_end);
      expect(start).toBeGreaterThan(NOW);
      expect(start).toBeLessThan(NOW + 15 * DAY);
      expect(end).toBeGreaterThan(start);
      expect(start % (15 * 60_000)).toBe(0);
      expect(end % (15 * 60_000)).toBe(0);
      expect(callsigns.has(b.callsign)).toBe(true);
      expect(userIds.has(b.user_id)).toBe(true);
    }
    expectNoOverlaps(demo);
    expect(count(demo.bookings, (b) => b.time_start.slice(0, 10) !== b.time_end.slice(0, 10))).toBeGreaterThan(0);
    for (const tag of [1, 2, 3, null])
      expect(
        count(demo.bookings, (b) => b.tag === tag),
        `tag ${tag}`,
      ).toBeGreaterThan(0);
    expect(distinct(demo.bookings.map((b) => b.time_start.slice(0, 10)))).toBeGreaterThanOrEqual(12);
  });

  it('never books a position requiring a facility for a controller without it, except as training or exam', () => {
    const required = new Map(demo.positions.map((p) => [p.callsign, p.required_facility]));
    const held = new Set(
      demo.endorsements
        .filter((e) => e.type === 'facility' && !e.revoked && e.valid_from <= NOW_ISO && (e.valid_to === null || e.valid_to > NOW_ISO))
        .map((e) => `${e.user_id}|${e.rating}`),
    );
    const facilityBookings = demo.bookings.filter((b) => required.get(b.callsign));
    expect(facilityBookings.length).toBeGreaterThan(5);
    for (const b of facilityBookings) {
      if (b.tag !== 1 && b.tag !== 2)
        expect(held.has(`${b.user_id}|${required.get(b.callsign)}`), `${b.user_id} on ${b.callsign}`).toBe(true);
    }
  });

  it('refuses a nonsensical scale', () => {
    expect(() => buildDemoDivision({ now: NOW, scale: { users: -1 } })).toThrow(RangeError);
    expect(() => buildDemoDivision({ now: NOW, scale: { bookings: 1.5 } })).toThrow(RangeError);
    expect(() => buildDemoDivision({ now: NOW, scale: { endorsementsPerUser: Number.NaN } })).toThrow(RangeError);
  });

  it('produces an empty but valid division with no users', () => {
    const empty = buildDemoDivision({ now: NOW, scale: { users: 0 } });
    expect(parseImport(empty).positions.length).toBe(demo.positions.length);
    expect([empty.users, empty.endorsements, empty.roles, empty.trainings, empty.bookings].map((l) => l.length)).toEqual([0, 0, 0, 0, 0]);
  });

  it('stays valid and loadable at odd scales', async () => {
    for (const [seed, scale] of [
      [2, { users: 1, endorsementsPerUser: 5, openTrainings: 10, bookings: 40 }],
      [3, { users: 7, endorsementsPerUser: 3, openTrainings: 0, bookings: 300 }],
      [4, { users: 40, endorsementsPerUser: 0, openTrainings: 100, bookings: 0 }],
    ] as const) {
      const data = buildDemoDivision({ now: NOW, seed, scale });
      expect(data.users).toHaveLength(scale.users);
      expect(data.endorsements).toHaveLength(scale.users * scale.endorsementsPerUser);
      expect(count(data.trainings, (t) => t.status >= 0)).toBe(scale.openTrainings);
      expect(data.bookings).toHaveLength(scale.bookings);
      expectUniqueNaturalKeys(data);
      expectNoOverlaps(data);
      const ctx = await createTestContext({ now: NOW });
      try {
        await ctx.load(data);
      } finally {
        await ctx.close();
      }
    }
  });

  describe('loaded into a fresh database', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext({ now: NOW });
      await ctx.load(demo);
    });
    afterAll(() => ctx.close());

    it('lists its positions on GET /api/positions, sorted, with three-decimal frequencies', async () => {
      const res = await ctx.request({ method: 'GET', url: '/api/positions' });
      expect(res.statusCode).toBe(200);
      const expected = demo.positions
        .map(({ callsign, name, frequency }) => ({ callsign, name, frequency }))
        .sort((a, b) => (a.callsign < b.callsign ? -1 : 1));
      expect(res.json()).toEqual({ data: expected });
      expect(expected.length).toBeGreaterThanOrEqual(55);
    });
  });
});

describe('demo division (benchmark scale)', () => {
  const big = buildDemoDivision({ now: NOW, seed: 42, scale: BENCH_SCALE });

  it('produces the requested counts, valid and without overlaps', () => {
    expect(big.users).toHaveLength(10_000);
    expect(big.endorsements).toHaveLength(30_000);
    expect(count(big.trainings, (t) => t.status >= 0)).toBe(2000);
    expect(big.bookings).toHaveLength(2000);
    parseImport(big);
    expectUniqueNaturalKeys(big);
    expectNoOverlaps(big);
    for (const b of big.bookings) expect(ms(b.time_start)).toBeGreaterThan(NOW);
  });

  it('loads into a fresh database', async () => {
    const ctx = await createTestContext({ now: NOW });
    try {
      await ctx.load(big);
      const res = await ctx.request({ method: 'GET', url: '/api/positions' });
      expect(res.json().data).toHaveLength(big.positions.length);
    } finally {
      await ctx.close();
    }
  });
});
