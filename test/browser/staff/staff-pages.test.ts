// The staff pages in a real Chromium against a server process, members signing in through the
// VATSIM Connect stand-in (contract §17): a member without a role, a Mentor issuing a solo through
// the form and refused one for someone else's trainee (403 with the reason), a Moderator's form
// failing beside its field and granting a role, an Administrator adding a position; every page
// scanned by axe (no serious or critical finding) at 1280 and 375 pixels, fitting the width, with
// screenshots (SCREENSHOTS_TO_DOCS=1 writes them to docs/screenshots/ for the docs). The division's
// hub stand-in answers (a person's theory exams; the solo's exam), and once is unreachable.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { launchBrowser, SCREENSHOTS, seriousFindings, SKIP_BROWSER, startConnectServer } from '../../support/browser.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ADA, BO, buildBooking, buildEndorsement, buildPosition, buildTraining, buildUser } from '../../support/factories.js';
import { ROOT, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, MOD, PLAIN, STAFF_PEOPLE as PEOPLE } from '../../support/staff-division.js';

const SHOTS = process.env.SCREENSHOTS_TO_DOCS === '1' ? path.join(ROOT, 'docs', 'screenshots') : SCREENSHOTS;
const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const isoDay = (days: number) => new Date(today + days * DAY).toISOString().slice(0, 10);
const ymdHis = (days: number, hour: number) => `${isoDay(days)} ${String(hour).padStart(2, '0')}:00:00`;

const CY = 1000014;
const DAG = 1000015;
const DIVISION = buildStaffDivision({
  users: [
    buildUser({ id: CY, first_name: 'Cy', last_name: 'Dahl', rating: 'S1' }),
    buildUser({ id: DAG, first_name: 'Dag', last_name: 'Ek', rating: 'S2' }),
  ],
  positions: [
    buildPosition('EKCH_DEL'),
    buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }),
    buildPosition('EKCH_APP'),
    buildPosition('ESSA_TWR'),
  ],
  endorsements: [
    buildEndorsement({
      user_id: DAG,
      type: 'solo',
      rating: null,
      positions: ['EKCH_TWR'],
      valid_from: `${isoDay(-10)}T10:00:00Z`,
      valid_to: `${isoDay(4)}T23:59:00Z`,
    }),
    buildEndorsement({ user_id: ADA, valid_from: `${isoDay(-200)}T10:00:00Z` }),
    buildEndorsement({
      user_id: ADMIN,
      type: 'examiner',
      rating: 'C1',
      areas: ['Denmark', 'Sweden'],
      valid_from: `${isoDay(-30)}T10:00:00Z`,
    }),
  ],
  trainings: [
    buildTraining({ user_id: CY, status: 0, ratings: ['S2'], created_at: `${isoDay(-90)}T10:00:00Z` }),
    buildTraining({ user_id: DAG, status: 2, ratings: ['S3'], created_at: `${isoDay(-300)}T10:00:00Z` }),
  ],
  bookings: [buildBooking({ user_id: ADA, callsign: 'EKCH_DEL', time_start: ymdHis(2, 10), time_end: ymdHis(2, 12) })],
});

describe.skipIf(SKIP_BROWSER)('staff pages in Chromium', () => {
  let connect: ConnectStandIn;
  let hub: HubStandIn;
  let server: ServerProcess;
  let browser: Browser;

  /** A browser of its own, signed in through the Connect stand-in as `cid`, on `url`. */
  async function signedIn(cid: keyof typeof PEOPLE, url: string, options: BrowserContextOptions = {}) {
    const p = PEOPLE[cid];
    connect.setUser(connectUser(cid, p.rating, { name_first: p.first, name_last: p.last }));
    const context = await browser.newContext({ locale: 'en-GB', ...options });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      // A 403 or 422 page is the response expected here; Chromium logs its status.
      if (m.type() === 'error' && !/status of (403|422)\b/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${server.url}/auth/login?next=${encodeURIComponent(url)}`, { waitUntil: 'networkidle' });
    return { page, problems, close: () => context.close() };
  }

  const askedAboutAda = () => hub.requests.filter((r) => r.path === `/facility/user/${ADA}/exams`).length;
  const submit = (page: Page, button: string, url: RegExp) =>
    Promise.all([page.waitForURL(url, { waitUntil: 'networkidle' }), page.getByRole('button', { name: button, exact: true }).click()]);

  beforeAll(async () => {
    connect = await startConnectStandIn();
    connect.setConsent(true);
    const databaseUrl = freshDatabaseUrl();
    await importData({ DATABASE_URL: databaseUrl }, DIVISION);
    const db = openDatabase(databaseUrl);
    try {
      await assignAdasMentor(db.kysely);
    } finally {
      await db.close();
    }
    hub = await startHubStandIn();
    // Ada (in training for S3) passed its theory exam; a failed fast track and an assigned exam show too.
    hub.results.push(
      { user_cid: ADA, exam_id: 12, flag_exam_type: 3, passed: true, expiry: `${isoDay(300)} 00:00:00` },
      { user_cid: ADA, exam_id: 18, flag_exam_type: 8, passed: false, expiry: null },
    );
    hub.assignments.push({ user_cid: ADA, exam_id: 13, instructor_cid: ADMIN, created_at: `${isoDay(-3)} 10:00:00` });
    server = await startConnectServer(databaseUrl, connect, {
      SITE_NAME: 'Nordic vACC',
      ...hubEnv(hub),
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    await Promise.all([browser?.close(), server?.stop(), connect?.close(), hub?.close()]);
  });

  it('shows no Staff link to a member without a role, and responds to /staff with 403 and the reason', async () => {
    const { page, problems, close } = await signedIn(PLAIN, '/my/bookings');
    try {
      await expect(page.locator('.account').textContent()).resolves.toContain('Per Poulsen');
      await expect(page.locator('a', { hasText: /^Staff$/ }).count()).resolves.toBe(0);
      const res = await page.goto(`${server.url}/staff`, { waitUntil: 'networkidle' });
      expect(res!.status()).toBe(403);
      await expect(page.locator('[role=alert]').textContent()).resolves.toContain('The staff pages are for members holding a role');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("lets a Mentor issue a solo to their trainee through the form, and refuses one for another's trainee with the reason", async () => {
    const { page, problems, close } = await signedIn(MENTOR, '/my/bookings');
    try {
      await Promise.all([page.waitForURL(/\/staff$/, { waitUntil: 'networkidle' }), page.click('a:text-is("Staff")')]);
      await page.getByLabel('Find a person').fill('lind');
      await Promise.all([page.waitForURL(/q=lind/, { waitUntil: 'networkidle' }), page.getByRole('button', { name: 'Search' }).click()]);
      await Promise.all([page.waitForURL(/\/staff\/users\/\d+$/, { waitUntil: 'networkidle' }), page.click('a:text-is("Ada Lind")')]);
      await page.getByLabel('Type', { exact: true }).selectOption('solo');
      await page.getByLabel('Position (solo)').selectOption('EKCH_APP');
      await page.getByLabel('Last day (UTC)').fill(isoDay(14));
      const asked = askedAboutAda();
      await submit(page, 'Issue', /done=issued/);
      await expect(page.locator('.notice').textContent()).resolves.toBe('Endorsement issued.');
      // Issued once the hub said Ada passed the S3 theory exam: asked by the issue, then by the page it leads to.
      expect(askedAboutAda() - asked).toBe(2);
      await expect(page.locator('#endorsements-title + ul .card').first().textContent()).resolves.toContain(`Solo EKCH_APP`);
      await expect(page.locator('#endorsements-title + ul .card').first().textContent()).resolves.toContain(
        `active until ${isoDay(14)} 23:59 UTC`,
      );

      await page.goto(`${server.url}/staff/users/${BO}`, { waitUntil: 'networkidle' });
      await page.getByLabel('Position (solo)').selectOption('EKCH_TWR');
      await page.getByLabel('Last day (UTC)').fill(isoDay(7));
      await submit(page, 'Issue', new RegExp(`/staff/users/${BO}/endorsements#issue-problem$`));
      await expect(page.locator('h1').textContent()).resolves.toBe('Not allowed');
      await expect(page.locator('[role=alert]').textContent()).resolves.toContain("or by the student's own mentor");
      await page.screenshot({ path: path.join(SHOTS, 'staff-refused-1280.png') });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('shows a Moderator the message beside the field of a bad form, then grants a role', async () => {
    const { page, problems, close } = await signedIn(MOD, `/staff/users/${BO}`, { viewport: { width: 375, height: 812 }, bypassCSP: true });
    try {
      await page.getByLabel('Position (solo)').selectOption('EKCH_TWR');
      await page.getByLabel('Last day (UTC)').fill(isoDay(45));
      await submit(page, 'Issue', new RegExp(`/staff/users/${BO}/endorsements#issue-problem$`));
      const end = page.getByLabel('Last day (UTC)');
      await expect(end.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(end.inputValue()).resolves.toBe(isoDay(45));
      await expect(page.locator('#issue-valid_to-error').textContent()).resolves.toMatch(/30 days/);
      // The page comes back scrolled to the refused form's message, however far down the form is.
      expect(
        await page.evaluate(
          `((id) => { const r = document.getElementById(id).getBoundingClientRect(); return r.top > -1 && r.bottom <= innerHeight; })('issue-problem')`,
        ),
      ).toBe(true);
      expect(await seriousFindings(page, 'person with a form error')).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await page.screenshot({ path: path.join(SHOTS, 'staff-user-error-375.png'), fullPage: true });

      await page.getByLabel('Role', { exact: true }).selectOption('Mentor');
      await page.getByLabel('Area', { exact: true }).selectOption('Denmark');
      await submit(page, 'Grant', /done=granted/);
      await expect(page.locator('#roles-title + ul').textContent()).resolves.toContain('Mentor in Denmark');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('lets an Administrator add a position', async () => {
    const { page, problems, close } = await signedIn(ADMIN, '/staff/positions');
    try {
      const add = page.locator('form[action^="/staff/positions#"]');
      await add.getByLabel('Callsign').fill('ekch_gnd');
      await add.getByLabel('Name').fill('Kastrup Ground');
      await add.getByLabel('Frequency (MHz)').fill('121.905');
      await add.getByLabel('Area').selectOption('Denmark');
      await add.getByLabel('Rating').selectOption('S1');
      await submit(page, 'Add position', /done=added/);
      await expect(page.locator('.notice').textContent()).resolves.toBe('Position added.');
      await expect(page.locator('.card .callsign').allTextContents()).resolves.toContain('EKCH_GND');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("shows a person's page with a line when the division's hub cannot be reached, passing axe at 375 px", async () => {
    hub.mode = 'unreachable';
    const { page, problems, close } = await signedIn(ADMIN, `/staff/users/${ADA}`, {
      viewport: { width: 375, height: 812 },
      bypassCSP: true,
    });
    try {
      await expect(page.locator('#hub-exams-unreachable').textContent()).resolves.toContain('could not be reached');
      await expect(page.locator('#endorsements-title').count()).resolves.toBe(1);
      expect(await seriousFindings(page, 'person, hub unreachable')).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      hub.mode = 'up';
      await close();
    }
  }, 60_000);

  const PAGES = [
    ['staff', '/staff'],
    ['staff-users', '/staff/users?q=a'],
    ['staff-user', `/staff/users/${ADA}`],
    ['staff-endorsements', '/staff/endorsements'],
    ['staff-positions', '/staff/positions'],
  ] as const;
  // One sign-in and one load per page; the widths and themes are switched on it, each a full axe scan.
  for (const [name, url] of PAGES) {
    it(`${url} passes axe and fits 1280 px light, 375 px light and dark`, async () => {
      const { page, problems, close } = await signedIn(ADMIN, url, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
      try {
        expect(new URL(page.url()).pathname).toBe(url.split('?')[0]);
        for (const [width, colorScheme] of [
          [1280, 'light'],
          [375, 'light'],
          [375, 'dark'],
        ] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          expect(await page.evaluate('document.documentElement.scrollWidth'), `${width} ${colorScheme}`).toBeLessThanOrEqual(width);
          // The docs show the light ones; the dark ones are for a person to look at in test-results/.
          const shot =
            colorScheme === 'light' ? path.join(SHOTS, `${name}-${width}.png`) : path.join(SCREENSHOTS, `${name}-${width}-dark.png`);
          await page.screenshot({ path: shot, fullPage: true });
          expect(await seriousFindings(page, `${url} ${width}px ${colorScheme}`)).toEqual([]);
          if (name === 'staff-user')
            await expect(page.locator('#hub-exams-title + h3 + ul').textContent()).resolves.toMatch(/S3 theory: passed, valid until/);
        }
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
