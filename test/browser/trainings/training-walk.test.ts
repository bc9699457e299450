// The one long browser test of the training desk (issue 56, contract §20): the whole training walked
// through the pages in Chromium. A student applies on a 375 px phone; a Moderator starts it and
// assigns a mentor; the mentor writes a draft, edits it, publishes it and attaches a file; the
// Moderator plans an examination with two examiners and makes a grading link, through which an
// examiner without a staff role grades it; the Moderator completes the training; the student still
// sees the report, its file and the result on /my. Each actor's clicks (navigations and submits)
// are counted. Then the other theme's one check: colour contrast of the desk's pages in dark (the
// other browser files scan every page in full in light, at both widths). SCREENSHOTS_TO_DOCS=1
// writes the docs' screenshots (docs/training.md) to docs/screenshots/.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contrastFindings,
  openAs,
  SCREENSHOTS,
  seriousFindings,
  type SignedInSite,
  SKIP_BROWSER,
  startSignedInSite,
} from '../../support/browser.js';
import { buildEndorsement, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { ROOT, type ServerProcess } from '../../support/processes.js';

const SHOTS = process.env.SCREENSHOTS_TO_DOCS === '1' ? path.join(ROOT, 'docs', 'screenshots') : SCREENSHOTS;
const STU = buildUser({ id: 1000060, first_name: 'Sofie', last_name: 'Student', rating: 'S1', division: 'EUD' });
const MOD = buildUser({ id: 1000061, first_name: 'Mona', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const MEN = buildUser({ id: 1000062, first_name: 'Mats', last_name: 'Mentor', rating: 'C1', division: 'EUD' });
const EXA = buildUser({ id: 1000063, first_name: 'Erik', last_name: 'Examiner', rating: 'C3', division: 'EUD' });
const EXB = buildUser({ id: 1000064, first_name: 'Ebba', last_name: 'Examiner', rating: 'C1', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark'],
  users: [STU, MOD, MEN, EXA, EXB],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
  roles: [
    buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' }),
    buildRole({ user_id: MEN.id, area: 'Denmark', role: 'Mentor' }),
  ],
  // The examiners hold no staff role: one of them grades through a one-time link.
  endorsements: [
    buildEndorsement({ user_id: EXA.id, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
    buildEndorsement({ user_id: EXB.id, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
  ],
};

const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1366, height: 800 };
type Actor = 'student' | 'moderator' | 'mentor' | 'examiner';

describe.skipIf(SKIP_BROWSER)('the whole training, walked through the pages', () => {
  let server: ServerProcess;
  let browser: Browser;
  let site: SignedInSite;
  /** Navigations (a page opened, a link followed) and submits, per actor. */
  const clicks: Record<Actor, number> = { student: 0, moderator: 0, mentor: 0, examiner: 0 };
  const cid: Record<Actor, number> = { student: STU.id, moderator: MOD.id, mentor: MEN.id, examiner: EXA.id };

  /** Opens `url` as `who` (one navigation: signing in lands on /my, a link arrives by mail). */
  async function visit(who: Actor, url: string, options: BrowserContextOptions = {}) {
    clicks[who] += 1;
    return openAs(browser, server, site.cookies[cid[who]]!, url, { bypassCSP: true, viewport: DESKTOP, ...options });
  }
  /** One click that loads a page (a link followed or a form sent), counted for `who`. */
  async function click(who: Actor, page: Page, target: ReturnType<Page['locator']>) {
    clicks[who] += 1;
    // Every click of the walk lands on another address (a form's answer redirects with ?done=…).
    const from = page.url();
    await Promise.all([page.waitForURL((u) => u.toString() !== from, { waitUntil: 'networkidle' }), target.click()]);
  }
  const fits = async (page: Page, width: number) =>
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  /**
   * Mid-walk (report published, examination planned, links unused): the link pages' full axe
   * scan in light at both widths (the desk's other pages get theirs in their own files), the docs'
   * screenshots, and the dark theme's one contrast check over the desk's pages.
   */
  async function scans(link: string, reportLink: string) {
    const pages: Array<[number, string, string]> = [
      [STU.id, '/my', 'home-student'],
      [STU.id, '/my/training', 'my-training'],
      [MEN.id, '/staff/students', 'staff-students'],
      [MOD.id, '/staff/trainings', 'staff-trainings'],
      [MOD.id, '/staff/trainings/1', 'staff-training'],
      [MOD.id, '/staff/trainings/1/reports/1/edit', 'report-edit'],
      [MOD.id, '/staff/exams', 'staff-exams'],
      [MOD.id, '/staff/templates', 'report-templates'],
      [EXA.id, link, 'link-grade'],
      [MEN.id, reportLink, 'link-report'],
    ];
    for (const [who, url, name] of pages) {
      const docs =
        name === 'home-student' || name === 'link-grade'
          ? [PHONE]
          : name === 'link-report'
            ? []
            : ['my-training', 'staff-trainings', 'report-templates'].includes(name)
              ? []
              : [DESKTOP];
      const linkPage = name.startsWith('link-');
      for (const viewport of linkPage ? [PHONE, DESKTOP] : docs) {
        const { page, close } = await openAs(browser, server, site.cookies[who]!, url, { bypassCSP: true, viewport });
        try {
          await fits(page, viewport.width);
          if (docs.includes(viewport)) await shot(page, `${name}-${viewport.width}`);
          if (linkPage) expect(await seriousFindings(page, `${name} ${viewport.width}`)).toEqual([]);
        } finally {
          await close();
        }
      }
      const dark = await openAs(browser, server, site.cookies[who]!, url, { bypassCSP: true, viewport: DESKTOP, colorScheme: 'dark' });
      try {
        expect(await contrastFindings(dark.page), `${url} in dark`).toEqual([]);
      } finally {
        await dark.close();
      }
    }
  }

  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [STU, MOD, MEN, EXA, EXB]);
    ({ server, browser } = site);
  }, 120_000);
  afterAll(() => site.close());

  it('walks a training from the application on a phone to the result on /my, counting the clicks', async () => {
    // The student applies on a phone: the only choice there is comes ticked.
    const student = await visit('student', '/my', { viewport: PHONE });
    await click('student', student.page, student.page.getByRole('link', { name: 'Apply for training' }));
    await expect(student.page.getByLabel('The S2 rating').isChecked()).resolves.toBe(true);
    await student.page.getByLabel('Motivation').fill('I have flown in Danish airspace for years and want to give something back.');
    await student.page.getByLabel('Experience').selectOption({ label: 'Experienced on the network' });
    await click('student', student.page, student.page.getByRole('button', { name: 'Apply' }));
    await expect(student.page.locator('.place').textContent()).resolves.toBe('You are 1st of 1 in the queue for S2 in Denmark.');
    await fits(student.page, PHONE.width);
    await student.close();

    // The Moderator finds it on /my, starts it and assigns the mentor; the application's answers are in the summary.
    const mod = await visit('moderator', '/my');
    await click('moderator', mod.page, mod.page.locator('#attention-title ~ ol a').first());
    await expect(mod.page.locator('.training-summary').textContent()).resolves.toContain('Experienced on the network');
    await mod.page.getByLabel('New status').selectOption('2');
    await click('moderator', mod.page, mod.page.getByRole('button', { name: 'Change status' }));
    await mod.page.getByLabel(`Mats Mentor (${MEN.id})`).check();
    await click('moderator', mod.page, mod.page.getByRole('button', { name: 'Save', exact: true }));
    const trainingUrl = new URL(mod.page.url()).pathname;

    // The mentor: their student on /my, a draft, edited, published, with a file.
    const men = await visit('mentor', '/my');
    await click('mentor', men.page, men.page.getByRole('link', { name: `Sofie Student (${STU.id})` }).first());
    await men.page.getByLabel('Report', { exact: true }).fill('First session on EKCH_DEL.');
    await men.page.getByLabel('Draft (hidden from the student)').check();
    await click('mentor', men.page, men.page.getByRole('button', { name: 'Save report' }));
    await click('mentor', men.page, men.page.getByRole('link', { name: /^Edit report of / }).first());
    await men.page.getByLabel('Report', { exact: true }).fill('First session on EKCH_DEL: **clear** readbacks.');
    await click('mentor', men.page, men.page.getByRole('button', { name: 'Save report' }));
    await click('mentor', men.page, men.page.getByRole('button', { name: /^Publish report of / }));
    await men.page.locator('#file-report-1-file').setInputFiles({
      name: 'session-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Readbacks: good.\n'),
    });
    await click('mentor', men.page, men.page.getByRole('button', { name: 'Upload' }));
    await expect(men.page.locator('#report-1').textContent()).resolves.toContain('session-notes.txt');
    await men.close();

    // The Moderator plans the examination with both examiners, then makes a grading link.
    await mod.page.locator('#exam-position').selectOption('EKCH_TWR');
    await mod.page.locator('#exam-start').fill('18:00');
    await mod.page.getByLabel(`Erik Examiner (${EXA.id}), examines up to C1`).check();
    await mod.page.getByLabel(`Ebba Examiner (${EXB.id}), examines up to C1`).check();
    await click('moderator', mod.page, mod.page.getByRole('button', { name: 'Save examination' }));
    await expect(mod.page.locator('.exams').textContent()).resolves.toContain(
      `Erik Examiner (${EXA.id}) and Ebba Examiner (${EXB.id}): Planned`,
    );
    await click('moderator', mod.page, mod.page.getByRole('button', { name: 'Make a grading link' }));
    const link = new URL(await mod.page.locator('#link-url').inputValue()).pathname;

    // Meanwhile (not counted): a link for one report, then the pages scanned and photographed in this state of the training.
    await mod.page.goto(new URL(trainingUrl, server.url).toString(), { waitUntil: 'networkidle' });
    await Promise.all([
      mod.page.waitForURL((u) => u.pathname !== trainingUrl, { waitUntil: 'networkidle' }),
      mod.page.getByRole('button', { name: 'Make a link for one report' }).click(),
    ]);
    const reportLink = new URL(await mod.page.locator('#link-url').inputValue()).pathname;
    await scans(link, reportLink);

    // The examiner, who holds no role, grades through the link.
    const exa = await visit('examiner', link);
    await expect(exa.page.locator('h1').textContent()).resolves.toBe('Examination of Sofie Student');
    await exa.page.getByLabel('Result').selectOption('PASSED');
    await click('examiner', exa.page, exa.page.getByRole('button', { name: 'Save the result' }));
    await expect(exa.page.locator('h1').textContent()).resolves.toBe('Examination graded');
    await exa.close();

    // The Moderator completes the training.
    await mod.page.goto(new URL(trainingUrl, server.url).toString(), { waitUntil: 'networkidle' });
    clicks.moderator += 1;
    await expect(mod.page.locator('.exams').textContent()).resolves.toContain('PASSED');
    await mod.page.getByLabel('New status').selectOption('-1');
    await click('moderator', mod.page, mod.page.getByRole('button', { name: 'Change status' }));
    await expect(mod.page.locator('main').textContent()).resolves.toContain('This training is closed');
    await mod.close();

    // The student, back on /my: the completed training keeps the report, its file and the result.
    const after = await visit('student', '/my', { viewport: PHONE });
    const past = after.page.locator('.past-training');
    await expect(past.textContent()).resolves.toContain('First session on EKCH_DEL: clear readbacks.');
    await expect(past.textContent()).resolves.toContain('session-notes.txt');
    await expect(past.textContent()).resolves.toContain('Passed');
    await fits(after.page, PHONE.width);
    await after.close();

    console.info(`training walk clicks: ${JSON.stringify(clicks)}`);
    expect(clicks).toEqual({ student: 4, moderator: 8, mentor: 7, examiner: 2 });
  }, 120_000);
});
