// The staff reports and the audit page (contract §25) in a real Chromium against a server process: each
// page passes axe and fits at 375 and 1366 pixels in the light and the dark theme, the chart is an image
// with its title, and its colours follow the member's chosen look. The figures are the HTTP test's
// (test/support/report-division.ts), moved to the server's own clock.
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { launchBrowser, openAs, SCREENSHOTS, seriousFindings, SKIP_BROWSER } from '../../support/browser.js';
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

  // One load per page; the widths and themes are switched on it, so each of the four is a full axe scan.
  it('each page passes axe and fits at 375 and 1366 px, light and dark', async () => {
    for (const [url, name] of PAGES) {
      const { page, close } = await openAs(browser, server, cookie, url, { bypassCSP: true, viewport: { width: 1366, height: 800 } });
      try {
        expect(await page.locator('h1').textContent(), url).toMatch(/^(Reports: |Audit log)/);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          for (const width of [375, 1366]) {
            await page.setViewportSize({ width, height: 800 });
            if (url.includes('trainings') || url.includes('activity')) {
              const chart = page.getByRole('img', { name: /per month/ });
              await expect(chart.count()).resolves.toBe(1);
              expect((await chart.boundingBox())!.width).toBeLessThanOrEqual(width);
            }
            expect(await page.evaluate('document.documentElement.scrollWidth'), `${url} ${width}`).toBeLessThanOrEqual(width);
            await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}-${colorScheme}.png`), fullPage: true });
            expect(await seriousFindings(page, `${name} ${colorScheme} ${width}`)).toEqual([]);
          }
        }
      } finally {
        await close();
      }
    }
  }, 180_000);

  it("draws the chart in the member's chosen look, whatever the device prefers", async () => {
    const { page, close } = await openAs(browser, server, cookie, PAGES[0][0], {
      bypassCSP: true,
      colorScheme: 'light',
      viewport: { width: 1366, height: 800 },
    });
    try {
      const fill = () => page.evaluate("getComputedStyle(document.querySelector('.chart .bar.s0')).fill") as Promise<string>;
      const light = await fill();
      // The server writes data-look on the root for a member who chose one (contract §24; test/http/settings).
      await page.evaluate(`document.documentElement.dataset.look = 'dark'`);
      const chosenDark = await fill();
      expect(chosenDark).not.toBe(light);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.evaluate(`document.documentElement.removeAttribute('data-look')`);
      expect(await fill()).toBe(chosenDark);
      await page.evaluate(`document.documentElement.dataset.look = 'light'`);
      expect(await fill()).toBe(light);
    } finally {
      await close();
    }
  }, 60_000);
});
