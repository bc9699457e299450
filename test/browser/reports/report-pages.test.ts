// The staff reports and the audit page (contract §25) in a real Chromium against a server process: each
// page passes axe and fits at 375 and 1366 pixels in the light theme, the chart is an image with its
// title, and the dark theme's contrast holds on the chart's page. The figures are the HTTP test's
// (test/support/report-division.ts), moved to the server's own clock.
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { AXE, launchBrowser, openAs, SCREENSHOTS, seriousFindings, SKIP_BROWSER } from '../../support/browser.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { SIGN_IN_ENV, signInOnDatabase } from '../../support/members.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { addReportFigures, buildReportDivision, REPORT_NOW } from '../../support/report-division.js';
import { importData } from '../../support/seed.js';
import { ADMIN, STAFF_USERS } from '../../support/staff-division.js';

const PAGES = [
  ['/staff/reports/trainings?area=Denmark', 'reports-trainings'],
  ['/staff/reports/activity', 'reports-activity'],
  ['/staff/reports/mentors', 'reports-mentors'],
  ['/staff/reports/access', 'reports-access'],
  ['/staff/audit', 'staff-audit'],
] as const;

describe.skipIf(SKIP_BROWSER)('the staff reports in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    const databaseUrl = freshDatabaseUrl();
    await importData({ DATABASE_URL: databaseUrl }, buildReportDivision());
    const db = openDatabase(databaseUrl);
    try {
      await addReportFigures(db.kysely, Math.round((Date.now() - REPORT_NOW) / 86_400_000));
    } finally {
      await db.close();
    }
    server = await startServer({ DATABASE_URL: databaseUrl, SITE_NAME: 'Nordic vACC', DIVISION: 'EUD', ...SIGN_IN_ENV });
    cookie = await signInOnDatabase(
      databaseUrl,
      STAFF_USERS.find((u) => u.id === ADMIN)!,
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  for (const width of [375, 1366]) {
    it(`each page passes axe and fits ${width} px (light)`, async () => {
      for (const [url, name] of PAGES) {
        const { page, close } = await openAs(browser, server, cookie, url, {
          bypassCSP: true,
          colorScheme: 'light',
          viewport: { width, height: 800 },
        });
        try {
          expect(await page.locator('h1').textContent(), url).toMatch(/^(Reports: |Audit log)/);
          if (url.includes('trainings') || url.includes('activity')) {
            const chart = page.getByRole('img', { name: /per month/ });
            await expect(chart.count()).resolves.toBe(1);
            expect((await chart.boundingBox())!.width).toBeLessThanOrEqual(width);
          }
          expect(await page.evaluate('document.documentElement.scrollWidth'), url).toBeLessThanOrEqual(width);
          await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}-light.png`), fullPage: true });
          expect(await seriousFindings(page, `${name} light ${width}`)).toEqual([]);
        } finally {
          await close();
        }
      }
    }, 120_000);
  }

  it('keeps its contrast in the dark theme', async () => {
    const { page, close } = await openAs(browser, server, cookie, PAGES[0][0], {
      bypassCSP: true,
      colorScheme: 'dark',
      viewport: { width: 1366, height: 800 },
    });
    try {
      await page.screenshot({ path: path.join(SCREENSHOTS, 'reports-trainings-1366-dark.png'), fullPage: true });
      await page.addScriptTag({ path: AXE });
      const contrast = (await page.evaluate(
        `axe.run({ runOnly: ['color-contrast'] }).then((r) => ({ checked: r.passes.length + r.violations.length, violations: r.violations.length }))`,
      )) as { checked: number; violations: number };
      expect(contrast.checked).toBeGreaterThan(0);
      expect(contrast.violations).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);
});
