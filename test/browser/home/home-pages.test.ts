// The member's home and "My students" (contract §20) in a real Chromium against a server process:
// a Moderator assigns a mentor and the mentor writes a report through the pages, then /my (the
// student's, the mentor's) and /staff/students pass axe and fit 375 and 1366 pixels in light
// (dark: contrast in training-walk.test.ts), and the student's open training is on the first 375×667 screen.
import path from 'node:path';
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, SCREENSHOTS, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildBooking, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const STU = buildUser({ id: 1000050, first_name: 'Sofie', last_name: 'Student', rating: 'S1', division: 'EUD' });
const MOD = buildUser({ id: 1000051, first_name: 'Mona', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const MEN = buildUser({ id: 1000052, first_name: 'Mats', last_name: 'Mentor', rating: 'C1', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark'],
  users: [STU, MOD, MEN],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
  roles: [
    buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' }),
    buildRole({ user_id: MEN.id, area: 'Denmark', role: 'Mentor' }),
  ],
  endorsements: [
    buildEndorsement({ user_id: STU.id, type: 'solo', rating: null, positions: ['EKCH_TWR'], valid_to: '2099-01-01T00:00:00Z' }),
  ],
  trainings: [buildTraining({ user_id: STU.id, status: 2, created_at: '2026-01-05T10:00:00Z', started_at: '2026-02-01T10:00:00Z' })],
  bookings: [buildBooking({ user_id: STU.id, callsign: 'EKCH_DEL' })],
};

describe.skipIf(SKIP_BROWSER)('the member home and my students in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let site: SignedInSite;
  const open = (who: number, url: string, options: BrowserContextOptions = {}) =>
    openAs(browser, server, site.cookies[who]!, url, { bypassCSP: true, ...options });

  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [STU, MOD, MEN]);
    ({ server, browser } = site);
    // Through the pages: the Moderator assigns the mentor, the mentor writes a report.
    const { page, close } = await open(MOD.id, '/staff/trainings/1');
    try {
      await page.getByLabel(`Mats Mentor (${MEN.id})`).check();
      await Promise.all([
        page.waitForURL(/done=changed/, { waitUntil: 'networkidle' }),
        page.getByRole('button', { name: 'Save', exact: true }).click(),
      ]);
    } finally {
      await close();
    }
    const mentor = await open(MEN.id, '/staff/trainings/1');
    try {
      await mentor.page.getByLabel('Report', { exact: true }).fill('Good radio work on Kastrup Delivery.');
      await Promise.all([
        mentor.page.waitForURL(/done=report/, { waitUntil: 'networkidle' }),
        mentor.page.click('button:has-text("Save report")'),
      ]);
    } finally {
      await mentor.close();
    }
  }, 120_000);
  afterAll(() => site.close());

  it("puts the student's open training on a phone's first screen, with the mentor by name", async () => {
    const { page, close } = await open(STU.id, '/my', { viewport: { width: 375, height: 667 } });
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe('My page');
      const heading = await page.locator('#open-title').boundingBox();
      expect(heading).not.toBeNull();
      expect(heading!.y + heading!.height).toBeLessThanOrEqual(667);
      await expect(page.locator('.open-training .facts').textContent()).resolves.toContain(`Mats Mentor (${MEN.id})`);
      await expect(page.locator('.open-training .reports').textContent()).resolves.toContain('Good radio work on Kastrup Delivery.');
      await expect(page.locator('#endorsements-title + ul').textContent()).resolves.toContain('Solo on EKCH_TWR');
    } finally {
      await close();
    }
  }, 60_000);

  // One theme here; the dark theme's contrast is checked once for the set (training-walk.test.ts).
  for (const colorScheme of ['light'] as const) {
    for (const viewport of [
      { width: 375, height: 667 },
      { width: 1366, height: 768 },
    ]) {
      for (const [who, url, name] of [
        [STU.id, '/my', 'home-student'],
        [MEN.id, '/my', 'home-mentor'],
        [MEN.id, '/staff/students', 'staff-students'],
        [MEN.id, '/staff', 'staff-overview-mentor'],
      ] as const) {
        it(`${name} passes axe and fits: ${colorScheme}, ${viewport.width}px`, async () => {
          const { page, close } = await open(who, url, { colorScheme, viewport });
          try {
            if (url === '/staff/students') {
              await expect(page.locator('.students').textContent()).resolves.toContain(`Sofie Student (${STU.id})`);
            }
            expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
            await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${viewport.width}-${colorScheme}.png`), fullPage: true });
            expect(await seriousFindings(page, `${name} ${colorScheme} ${viewport.width}`)).toEqual([]);
          } finally {
            await close();
          }
        }, 60_000);
      }
    }
  }
});
