// Report templates (contract §20) in the export and the import: the section written only when a
// division has templates, in a fixed order with their exact text and times, and read back by the
// import to the same bytes; a second import updates a template by (area, name) and keeps its creation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision } from '../../support/factories.js';

const HOSTILE = '## Zoë "Q" \\ 𝔘𝔫𝔦 👩\u200d✈️\u200b</script>\n\n- line';
const TEMPLATES = [
  { area: 'Sweden', name: 'Checkout', content: 'Ready?', created_at: '2026-01-02T03:04:05.006Z', updated_at: '2026-02-02T03:04:05Z' },
  { area: 'Denmark', name: 'Zulu', content: HOSTILE, created_at: '2026-01-01T00:00:00Z' },
  { area: 'Denmark', name: 'Alpha', content: 'First **session**', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-03T00:00:00Z' },
];

describe('report templates in the export and the import', () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestContext(), createTestContext()]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves the section out of a division without templates', async () => {
    await a.load(buildDivision({ areas: ['Denmark', 'Sweden'] }));
    expect(Object.keys(JSON.parse(await a.services.exports.text()))).not.toContain('report_templates');
  });

  it('writes them by area and name, and an import of the export gives the same bytes', async () => {
    await a.load({ report_templates: TEMPLATES });
    const text = await a.services.exports.text();
    const doc = JSON.parse(text);
    expect(doc.report_templates).toEqual([
      {
        area: 'Denmark',
        name: 'Alpha',
        content: 'First **session**',
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-03T00:00:00.000000Z',
      },
      {
        area: 'Denmark',
        name: 'Zulu',
        content: HOSTILE.trim(),
        created_at: '2026-01-01T00:00:00.000000Z',
        updated_at: '2026-01-01T00:00:00.000000Z',
      },
      {
        area: 'Sweden',
        name: 'Checkout',
        content: 'Ready?',
        created_at: '2026-01-02T03:04:05.006000Z',
        updated_at: '2026-02-02T03:04:05.000000Z',
      },
    ]);
    await b.load(doc);
    expect(await b.services.exports.text()).toBe(text);
  });

  it('updates a template of the same area and name, keeping when it was made; refuses an unknown area by its path', async () => {
    await b.load({ report_templates: [{ area: 'Denmark', name: 'Alpha', content: 'Second', updated_at: '2026-05-05T00:00:00Z' }] });
    const alpha = JSON.parse(await b.services.exports.text()).report_templates[0];
    expect(alpha).toEqual({
      area: 'Denmark',
      name: 'Alpha',
      content: 'Second',
      created_at: '2026-01-01T00:00:00.000000Z',
      updated_at: '2026-05-05T00:00:00.000000Z',
    });
    await expect(b.load({ report_templates: [{ area: 'Atlantis', name: 'X', content: 'y' }] })).rejects.toThrow(
      /report_templates\[0\]\.area: unknown area/,
    );
    await expect(
      b.load({
        report_templates: [
          { area: 'Denmark', name: 'X', content: 'y' },
          { area: 'Denmark', name: 'X', content: 'z' },
        ],
      }),
    ).rejects.toThrow(/area and name/);
    await expect(b.load({ report_templates: [{ area: 'Denmark', name: 'n'.repeat(81), content: 'y' }] })).rejects.toThrow(/at most 80/);
  });
});
