// The student's training pages in a real Chromium against a server process: applying on a phone,
// the form's errors next to their fields, "My training" with the place in the queue, and each page
// scanned with axe-core in light (dark: contrast in training-walk.test.ts) at 375 and 1366 pixels, with screenshots to look at.
import path from 'node:path';
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, SCREENSHOTS, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildPosition, buildTraining, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const CY = buildUser({ id: 1000003, first_name: 'Cy', last_name: 'Dahl', rating: 'S1', division: 'EUD' });
const DO = buildUser({ id: 1000004, first_name: 'Do', last_name: 'Eng', rating: 'S1', division: 'EUD' });
const EV = buildUser({ id: 1000005, first_name: 'Ev', last_name: 'Falk', rating: 'S2', division: 'EUD' });
const FY = buildUser({ id: 1000006, first_name: 'Fy', last_name: 'Gran', rating: 'S2', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark', 'Sweden'],
  users: [CY, DO, EV, FY],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('ESSA_TWR')],
  // Do waits before Cy in the Denmark S2 queue; Ev waits in another (S3).
  trainings: [
    buildTraining({ user_id: DO.id, created_at: '2026-01-05T10:00:00Z' }),
    buildTraining({ user_id: EV.id, status: 0, ratings: ['S3'], created_at: '2026-01-04T10:00:00Z' }),
  ],
};

describe.skipIf(SKIP_BROWSER)('the student’s training pages in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  const open = (url: string, cid: number, options: BrowserContextOptions = {}) => openAs(browser, server, cookies[cid]!, url, options);
  const cookies: Record<number, string> = {};

  let site: SignedInSite;
  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [CY, FY]);
    ({ server, browser } = site);
    Object.assign(cookies, site.cookies);
  }, 120_000);
  afterAll(() => site.close());

  it('applies on a phone: errors beside their fields, then My training with the place in the queue', async () => {
    const { page, close } = await open('/training/apply', CY.id, { viewport: { width: 375, height: 812 }, bypassCSP: true });
    try {
      await expect(page.title()).resolves.toBe('Apply for training — Nordic vACC');
      await page.getByLabel('Area').selectOption('Denmark');
      await page.getByLabel('The S2 rating').check();
      await page.getByLabel('Motivation').fill('Too short');
      await page.getByLabel('Experience').selectOption({ label: 'New to the network' });
      await Promise.all([page.waitForURL(/\/training\/apply$/, { waitUntil: 'networkidle' }), page.click('button:has-text("Apply")')]);
      const motivation = page.getByLabel('Motivation');
      await expect(motivation.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.locator('#motivation-error').textContent()).resolves.toContain('50 to 1500 characters');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'training-apply-error-375.png'), fullPage: true });
      expect(await seriousFindings(page, 'apply with errors')).toEqual([]);

      await motivation.fill('I have flown here for years and would like to give something back by controlling Kastrup.');
      await Promise.all([
        page.waitForURL(/\/my\/training\?done=applied/, { waitUntil: 'networkidle' }),
        page.click('button:has-text("Apply")'),
      ]);
      await expect(page.locator('.notice').textContent()).resolves.toBe('Your application is in the queue.');
      await expect(page.locator('.place').textContent()).resolves.toBe('You are 2nd of 2 in the queue for S2 in Denmark.');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    } finally {
      await close();
    }
  }, 60_000);

  for (const [url, cid, name] of [
    ['/training/apply', FY.id, 'training-apply'],
    ['/my/training', CY.id, 'my-training'],
  ] as const) {
    // One theme here; the dark theme's contrast is checked once for the set (training-walk.test.ts).
    for (const colorScheme of ['light'] as const) {
      for (const viewport of [
        { width: 375, height: 812 },
        { width: 1366, height: 800 },
      ]) {
        it(`${url} passes axe and fits the width: ${colorScheme}, ${viewport.width}px`, async () => {
          const { page, close } = await open(url, cid, { colorScheme, viewport, bypassCSP: true });
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
});
