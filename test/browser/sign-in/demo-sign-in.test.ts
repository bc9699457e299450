// npm run demo in a real Chromium: signing in as the demo mentor with one click (no script needed),
// the banner on every page, each scanned by axe-core at phone and desktop widths, with screenshots
// to look at.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS, seriousFindings, SKIP_BROWSER } from '../../support/browser.js';
import { tempDir } from '../../support/context.js';
import { ROOT, startServer, type ServerProcess } from '../../support/processes.js';

describe.skipIf(SKIP_BROWSER)('the demo sign-in in a browser', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ SECTOR_DEMO_DATABASE: `sqlite:${path.join(tempDir('sector-demo-'), 'demo.db')}` }, ROOT, ['--demo']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1366, height: 900 },
  ]) {
    it(`signs in as a mentor with one click and lands on the staff pages, each page passing axe: ${viewport.width}px`, async () => {
      // The sign-in is a plain form post (the pages load no script of theirs); the CSP bypass only lets axe in.
      const context = await browser.newContext({ locale: 'en-GB', viewport, bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/staff`, { waitUntil: 'networkidle' });
        // Signed out: /staff sends the visitor to the demo sign-in, and back afterwards.
        expect(new URL(page.url()).pathname).toBe('/auth/login');
        await expect(page.locator('aside.demo-banner').textContent()).resolves.toContain('Demo:');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({ path: path.join(SCREENSHOTS, `demo-sign-in-${viewport.width}.png`), fullPage: true });
        expect(await seriousFindings(page, `demo sign-in ${viewport.width}`)).toEqual([]);

        await page.getByRole('button', { name: /\(Mentor\)$/ }).click();
        await page.waitForLoadState('networkidle');
        expect(new URL(page.url()).pathname).toBe('/staff');
        await expect(page.locator('.account .member').textContent()).resolves.toMatch(/^Signed in as .+ \(\d+\)$/);
        await expect(page.locator('aside.demo-banner').count()).resolves.toBe(1);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
        await page.screenshot({ path: path.join(SCREENSHOTS, `demo-mentor-staff-${viewport.width}.png`), fullPage: true });
        expect(await seriousFindings(page, `demo mentor on /staff ${viewport.width}`)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
