// Tasks in a real Chromium (contract §21; the pages use no script of their own): a mentor sends a request from the
// training page ("Request…"), a refusal shows beside its box, the Moderator completes it on
// /staff/tasks; both pages pass axe and fit 375 and 1366 pixels (light theme).
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const MOD = buildUser({ id: 1000010, first_name: 'Maja', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const MENTOR = buildUser({ id: 1000011, first_name: 'Mats', last_name: 'Mentor', rating: 'C1', division: 'EUD' });
const STUDENT = buildUser({ id: 1000020, first_name: 'Cy', last_name: 'Student', rating: 'S1', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark'],
  users: [MOD, MENTOR, STUDENT],
  positions: [buildPosition('EKCH_TWR')],
  roles: [
    buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' }),
    buildRole({ user_id: MENTOR.id, area: 'Denmark', role: 'Mentor' }),
  ],
  trainings: [{ ...buildTraining({ user_id: STUDENT.id, status: 2, created_at: '2026-01-05T10:00:00Z' }), mentors: [MENTOR.id] }],
};

describe.skipIf(SKIP_BROWSER)('task pages in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let site: SignedInSite;
  const open = (who: number, url: string, options: BrowserContextOptions = {}) =>
    openAs(browser, server, site.cookies[who]!, url, { bypassCSP: true, javaScriptEnabled: false, ...options });

  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [MOD, MENTOR]);
    ({ server, browser } = site);
  }, 120_000);
  afterAll(() => site.close());

  it('sends a request from the training page and completes it on /staff/tasks, axe clean at 375 and 1366 px', async () => {
    for (const [i, width] of [375, 1366].entries()) {
      const viewport = { width, height: 812 };
      const mentor = await open(MENTOR.id, '/staff/trainings/1', { viewport, javaScriptEnabled: true });
      try {
        const { page } = mentor;
        await page.locator('summary:has-text("Request…")').click();
        await page.getByLabel('What to ask for').selectOption('solo_endorsement');
        await page.getByLabel('Ask', { exact: true }).selectOption(String(MOD.id));
        await page.getByLabel('Message').fill(`Ready for EKCH_TWR (${i}).`);
        await Promise.all([page.waitForURL(/#task-problem$/), page.click('button:has-text("Send the request")')]);
        await expect(page.locator('#task-theory_exam_passed-error').textContent()).resolves.toBe(
          'Confirm that the student has passed the theoretical exam.',
        );
        expect(await seriousFindings(page, `request refused ${width}`)).toEqual([]);
        await page.getByLabel('The student has passed the theoretical exam (needed for a solo endorsement)').check();
        await Promise.all([page.waitForURL(/done=task/), page.click('button:has-text("Send the request")')]);
        await expect(page.locator('.notice').first().textContent()).resolves.toBe('Request sent: the person asked was told.');
        await expect(page.locator('.task').first().textContent()).resolves.toContain(
          'Waiting · from Mats Mentor (1000011) to Maja Moderator (1000010)',
        );
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        expect(await seriousFindings(page, `training page ${width}`)).toEqual([]);
      } finally {
        await mentor.close();
      }
      const mod = await open(MOD.id, '/staff/tasks', { viewport, javaScriptEnabled: true });
      try {
        const { page } = mod;
        await expect(page.locator('#received-title').textContent()).resolves.toBe('Waiting for you (1)');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        expect(await seriousFindings(page, `/staff/tasks ${width}`)).toEqual([]);
        await page.getByLabel('Message (optional)').fill('Issued.');
        await Promise.all([
          page.waitForURL(/\/staff\/users\/1000020\?type=solo/),
          page.click('button:has-text("Complete and issue the solo")'),
        ]);
        await expect(page.locator('#issue-type').inputValue()).resolves.toBe('solo');
      } finally {
        await mod.close();
      }
    }
  }, 120_000);
});
