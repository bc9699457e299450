// The staff training pages in a real Chromium against a server process: a Moderator moves a
// training, assigns a mentor, writes a report, plans and grades an examination through the forms,
// and each page (/staff/exams too) passes axe and fits 375 and 1366 pixels in light (dark: contrast in training-walk.test.ts), with
// screenshots to look at.
import path from 'node:path';
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, SCREENSHOTS, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const MOD = buildUser({ id: 1000010, first_name: 'Maja', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const students = ['Cy', 'Do', 'Ev'].map((n, i) =>
  buildUser({ id: 1000020 + i, first_name: n, last_name: 'Student', rating: 'S1', division: 'EUD' }),
);
const EXA = buildUser({ id: 1000030, first_name: 'Erik', last_name: 'Examiner', rating: 'C3', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark'],
  users: [MOD, EXA, ...students],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
  roles: [buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' })],
  endorsements: [buildEndorsement({ user_id: EXA.id, type: 'examiner', rating: 'S3', areas: ['Denmark'] })],
  trainings: students.map((s, i) => buildTraining({ user_id: s.id, status: i === 0 ? 2 : 0, created_at: `2026-0${i + 1}-05T10:00:00Z` })),
};

describe.skipIf(SKIP_BROWSER)('the staff training pages in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let cookie: string;
  const open = (url: string, options: BrowserContextOptions = {}) => openAs(browser, server, cookie, url, { bypassCSP: true, ...options });

  let site: SignedInSite;
  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [MOD]);
    ({ server, browser } = site);
    cookie = site.cookies[MOD.id]!;
  }, 120_000);
  afterAll(() => site.close());

  it('moves a training and records a report and an examination through the forms, on a phone', async () => {
    const { page, close } = await open('/staff/trainings/1', { viewport: { width: 375, height: 812 } });
    try {
      await page.getByLabel('New status').selectOption('3');
      await Promise.all([page.waitForURL(/done=status/, { waitUntil: 'networkidle' }), page.click('button:has-text("Change status")')]);
      await expect(page.locator('.notice').textContent()).resolves.toBe('Status changed.');
      // A mentor ticked on the page is the one assigned (the box carries the mentor's CID).
      await page.getByLabel(`Maja Moderator (${MOD.id})`).check();
      await Promise.all([
        page.waitForURL(/done=changed/, { waitUntil: 'networkidle' }),
        page.getByRole('button', { name: 'Save', exact: true }).click(),
      ]);
      await expect(page.locator('.facts').textContent()).resolves.toContain(`MentorsMaja Moderator (${MOD.id})`);
      await page.getByLabel('Report', { exact: true }).fill('Smooth traffic handling.\nWork on phraseology.');
      await Promise.all([page.waitForURL(/done=report/, { waitUntil: 'networkidle' }), page.click('button:has-text("Save report")')]);
      // An examination planned with its examiner and position picked by name, then graded through its own form.
      await page.locator('#exam-position').selectOption('EKCH_TWR');
      await page.locator('#exam-start').fill('18:00');
      await page.getByLabel('Erik Examiner (1000030), examines up to S3').first().check();
      await Promise.all([page.waitForURL(/done=exam/, { waitUntil: 'networkidle' }), page.click('button:has-text("Save examination")')]);
      await expect(page.locator('.exams').textContent()).resolves.toContain('Erik Examiner (1000030): Planned');
      await page.locator('.exams select[name="result"]').first().selectOption('PASSED');
      await Promise.all([page.waitForURL(/done=graded/, { waitUntil: 'networkidle' }), page.click('button:has-text("Grade")')]);
      await expect(page.locator('.exams').textContent()).resolves.toContain('Erik Examiner (1000030): PASSED');
      // One more, a week ahead, left planned (the examinations overview shows it).
      await page.locator('#exam-examination_date').fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
      await page.locator('#exam-position').selectOption('EKCH_TWR');
      await page.locator('input[name="examiners"]').first().check();
      await Promise.all([page.waitForURL(/done=exam/, { waitUntil: 'networkidle' }), page.click('button:has-text("Save examination")')]);
      await expect(page.locator('.exams').textContent()).resolves.toContain('Planned');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    } finally {
      await close();
    }
  }, 60_000);

  // One theme here; the dark theme's contrast is checked once for the set (training-walk.test.ts).
  for (const colorScheme of ['light'] as const) {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1366, height: 800 },
    ]) {
      it(`shows an examination without an examiner again with the message beside the field: ${colorScheme}, ${viewport.width}px`, async () => {
        const { page, close } = await open('/staff/trainings/1', { colorScheme, viewport });
        try {
          await page.locator('#exam-start').fill('07:30');
          await Promise.all([
            page.waitForURL(/\/examinations#exam-problem$/, { waitUntil: 'networkidle' }),
            page.click('button:has-text("Save examination")'),
          ]);
          const examiners = page.locator('fieldset[aria-describedby="exam-examiners-error"]');
          await expect(examiners.count()).resolves.toBe(1);
          await expect(page.locator('#exam-examiners-error').textContent()).resolves.toContain('Name one or two examiners.');
          // The last form of the page comes back scrolled to its message, not to the top of the page.
          expect(
            await page.evaluate(
              `((id) => { const r = document.getElementById(id).getBoundingClientRect(); return r.top > -1 && r.bottom <= innerHeight; })('exam-problem')`,
            ),
          ).toBe(true);
          await expect(page.locator('#exam-start').inputValue()).resolves.toBe('07:30');
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: path.join(SCREENSHOTS, `staff-exam-error-${viewport.width}-${colorScheme}.png`), fullPage: true });
          expect(await seriousFindings(page, 'examination form error')).toEqual([]);
        } finally {
          await close();
        }
      }, 60_000);
    }
  }

  for (const [url, name] of [
    ['/staff/trainings', 'staff-trainings'],
    ['/staff/trainings/1', 'staff-training'],
    ['/staff/exams', 'staff-exams'],
  ] as const) {
    // One theme here; the dark theme's contrast is checked once for the set (training-walk.test.ts).
    for (const colorScheme of ['light'] as const) {
      for (const viewport of [
        { width: 375, height: 812 },
        { width: 1366, height: 800 },
      ]) {
        it(`${url} passes axe and fits the width: ${colorScheme}, ${viewport.width}px`, async () => {
          const { page, close } = await open(url, { colorScheme, viewport });
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
