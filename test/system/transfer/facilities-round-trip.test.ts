// Facility tiers (contract §22) in the export and the import: the section written only when a
// division has facilities with a row of their own, by name, and read back to the same bytes; a
// second import changes a tier by name and keeps a description it does not give; bad records are
// refused by their path and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildPosition } from '../../support/factories.js';

const FACILITIES = [
  { name: 'T2 EKDK CTR', tier: 'T2', description: 'Copenhagen Control', updated_at: '2026-03-01T10:00:00Z' },
  { name: 'T1 EKCH TWR', tier: 'T1', description: null, updated_at: '2026-02-01T10:00:00.5Z' },
  { name: 'ESSA TWR', tier: null, description: 'Arlanda Tower, no tier yet' },
];

describe('facility tiers in the export and the import', () => {
  let a: TestContext;
  let b: TestContext;
  const exported = async (ctx: TestContext) => JSON.parse(await ctx.services.exports.text()) as { facilities?: unknown[] };
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestContext(), createTestContext()]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves the section out while no facility has a row of its own (a name positions require is not one)', async () => {
    await a.load(buildDivision({ positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' })] }));
    expect(Object.keys(await exported(a))).not.toContain('facilities');
  });

  it('writes them by name with tier, description and time, and an import of the export gives the same bytes', async () => {
    const summary = await a.services.imports.run({ facilities: FACILITIES });
    expect(summary.facilities).toBe(3);
    const text = await a.services.exports.text();
    const doc = JSON.parse(text) as { facilities: unknown[] };
    expect(doc.facilities).toEqual([
      { name: 'ESSA TWR', tier: null, description: 'Arlanda Tower, no tier yet', updated_at: expect.stringMatching(/Z$/) },
      { name: 'T1 EKCH TWR', tier: 'T1', description: null, updated_at: '2026-02-01T10:00:00.500000Z' },
      { name: 'T2 EKDK CTR', tier: 'T2', description: 'Copenhagen Control', updated_at: '2026-03-01T10:00:00.000000Z' },
    ]);
    await b.load(doc);
    expect(await b.services.exports.text()).toBe(text);
    expect((await b.services.facilities.list()).find((f) => f.name === 'T1 EKCH TWR')).toEqual({
      name: 'T1 EKCH TWR',
      tier: 'T1',
      description: null,
    });
  });

  it('changes a tier by name, keeps a description the file does not give, and refuses bad records by their path', async () => {
    await b.load({ facilities: [{ name: 'T2 EKDK CTR', tier: null }] });
    expect((await b.services.facilities.list()).find((f) => f.name === 'T2 EKDK CTR')).toEqual({
      name: 'T2 EKDK CTR',
      tier: null,
      description: 'Copenhagen Control',
    });
    const before = await b.services.exports.text();
    await expect(b.load({ facilities: [{ name: 'X', tier: 'T3' }] })).rejects.toThrow(/facilities\[0\]\.tier: must be T1, T2 or null/);
    await expect(b.load({ facilities: [{ tier: 'T1' }] })).rejects.toThrow(/facilities\[0\]\.name: is required/);
    await expect(
      b.load({
        facilities: [
          { name: 'X', tier: 'T1' },
          { name: 'X', tier: 'T2' },
        ],
      }),
    ).rejects.toThrow(/facilities\[1\].*name/);
    await expect(b.load({ facilities: [{ name: 'Y', tier: null, colour: 'red' }] })).rejects.toThrow(/facilities\[0\]/);
    expect(await b.services.exports.text()).toBe(before);
  });
});
