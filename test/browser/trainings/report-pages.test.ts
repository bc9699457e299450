// A report edited, published and started from a template in a real Chromium (contract §20), without
// JavaScript doing any of it; the edit form and the templates pages pass axe and fit 375 and 1366
// pixels in light (dark: contrast in training-walk.test.ts), with screenshots to look at.
import path from 'node:path';
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, SCREENSHOTS, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const MOD = buildUser({ id: 1000010, first_name: 'Maja', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const STUDENT = buildUser({ id: 1000020, first_name: 'Cy', last_name: 'Student', rating: 'S1', division: 'EUD' });
const report = (content: string, draft: boolean) => ({
  report_date: '2026-11-20',
  content,
  improve: 'Read back **every** clearance',
  position: 'EKCH_TWR',
  draft,
  author_id: MOD.id,
  created_at: '2026-11-20T18:00:00Z',
});

const DIVISION = {
  areas: ['Denmark'],
  users: [MOD, STUDENT],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
  roles: [buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' })],
  trainings: [
    {
      ...buildTraining({ user_id: STUDENT.id, status: 2, created_at: '2026-01-05T10:00:00Z' }),
      reports: [report('Published **report** with a [link](https://example.org).', false), report('A *draft* report.', true)],
    },
  ],
  report_templates: [
    { area: 'Denmark', name: 'First session', content: '## Briefing\n\n- Phraseology:\n- Traffic:', created_at: '2026-01-01T00:00:00Z' },
  ],
};

describe.skipIf(SKIP_BROWSER)('report pages in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let cookie: string;
  const open = (url: string, options: BrowserContextOptions = {}) =>
    openAs(browser, server, cookie, url, { bypassCSP: true, javaScriptEnabled: false, ...options });

  let site: SignedInSite;
  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [MOD]);
    ({ server, browser } = site);
    cookie = site.cookies[MOD.id]!;
  }, 120_000);
  afterAll(() => site.close());

  it('starts a report from a template, edits a report at its own URL and publishes a draft, on a phone', async () => {
    const { page, close } = await open('/staff/trainings/1', { viewport: { width: 375, height: 812 } });
    try {
      await expect(page.locator('#report-1 strong').first().textContent()).resolves.toBe('report');
      await Promise.all([page.waitForURL(/template=1/), page.getByRole('link', { name: 'First session' }).first().click()]);
      await expect(page.getByLabel('Report', { exact: true }).inputValue()).resolves.toBe('## Briefing\n\n- Phraseology:\n- Traffic:');
      await page.getByLabel('Position', { exact: true }).first().selectOption('EKCH_DEL');
      await Promise.all([page.waitForURL(/done=report/), page.click('button:has-text("Save report")')]);

      await Promise.all([
        page.waitForURL(/\/reports\/1\/edit$/),
        page.getByRole('link', { name: 'Edit report of 2026-11-20' }).last().click(),
      ]);
      await page.getByLabel('Report', { exact: true }).fill('Published report, *corrected*.');
      await Promise.all([page.waitForURL(/done=report-edited/), page.click('button:has-text("Save report")')]);
      await expect(page.locator('.notice').textContent()).resolves.toBe('Report saved.');
      await expect(page.locator('#report-1 em').textContent()).resolves.toBe('corrected');

      await Promise.all([
        page.waitForURL(/done=report-published/),
        page.getByRole('button', { name: 'Publish report of 2026-11-20' }).click(),
      ]);
      await expect(page.locator('.flag').count()).resolves.toBe(0);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    } finally {
      await close();
    }
  }, 60_000);

  for (const [url, name] of [
    ['/staff/trainings/1/reports/1/edit', 'report-edit'],
    ['/staff/templates', 'report-templates'],
    ['/staff/templates/1', 'report-template'],
  ] as const) {
    // One theme here; the dark theme's contrast is checked once for the set (training-walk.test.ts).
    for (const colorScheme of ['light'] as const) {
      for (const viewport of [
        { width: 375, height: 812 },
        { width: 1366, height: 800 },
      ]) {
        it(`${url} passes axe and fits the width: ${colorScheme}, ${viewport.width}px`, async () => {
          const { page, close } = await open(url, { colorScheme, viewport, javaScriptEnabled: true });
          try {
            expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
            await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${viewport.width}-${colorScheme}.png`), fullPage: true });
            expect(await seriousFindings(page, url)).toEqual([]);
          } finally {
            await close();
          }
        }, 60_000);
      }
    }
  }

  it('shows a template refused beside its field, and passes axe', async () => {
    const { page, close } = await open('/staff/templates', { viewport: { width: 375, height: 812 }, javaScriptEnabled: true });
    try {
      await page.getByLabel('Name').fill('First session');
      await page.getByLabel('Text').fill('Again');
      await Promise.all([page.waitForURL(/#template-new-problem$/), page.click('button:has-text("Add template")')]);
      await expect(page.locator('#template-new-name-error').textContent()).resolves.toBe(
        'Denmark already has a template named First session.',
      );
      expect(await seriousFindings(page, 'template form error')).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
