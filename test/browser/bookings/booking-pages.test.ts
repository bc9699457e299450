// Members' booking pages in a real Chromium against a server process: booking on a phone from the
// form to "My bookings" and cancelling again, the form's errors next to their fields, and every
// page scanned with axe-core (no serious or critical violation) in light and dark, at 390 and 1366
// pixels wide, with screenshots in test-results/ for a person to look at.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { BO, buildBooking, buildPosition, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const skip = SKIP_BROWSER;

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const isoDay = (days: number) => new Date(today + days * DAY).toISOString().slice(0, 10);
const ymdHis = (days: number, hour: number) => `${isoDay(days)} ${String(hour).padStart(2, '0')}:00:00`;

const BOB = buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S3', division: 'EUD', atc_active_areas: { Denmark: true } });

const DIVISION = {
  areas: ['Denmark'],
  users: [BOB],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
  bookings: [
    buildBooking({ user_id: BO, callsign: 'EKCH_TWR', time_start: ymdHis(2, 10), time_end: ymdHis(2, 12), tag: 3 }),
    buildBooking({ user_id: BO, callsign: 'EKCH_APP', time_start: ymdHis(3, 18), time_end: ymdHis(3, 20) }),
  ],
};

interface Opened {
  page: Page;
  problems: string[];
  close: () => Promise<void>;
}

describe.skipIf(skip)('members booking pages in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let cookie: string;

  async function open(url: string, options: BrowserContextOptions = {}): Promise<Opened> {
    const context = await browser.newContext({ locale: 'en-GB', ...options });
    await context.addCookies([{ name: 'sector_session', value: cookie, url: server.url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    );
    await page.goto(new URL(url, server.url).toString(), { waitUntil: 'networkidle' });
    return { page, problems, close: () => context.close() };
  }

  let site: SignedInSite;
  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [BOB]);
    ({ server, browser } = site);
    cookie = site.cookies[BOB.id]!;
  }, 120_000);
  afterAll(() => site.close());

  it('books on a phone from the form to My bookings, and cancels it again', async () => {
    const { page, problems, close } = await open('/bookings/new', { viewport: { width: 390, height: 844 } });
    try {
      await expect(page.title()).resolves.toBe('Book a position — Nordic vACC');
      expect(await page.locator('#position option').allTextContents()).toEqual([
        'EKCH_APP — Copenhagen Approach',
        'EKCH_DEL — Kastrup Delivery',
        'EKCH_TWR — Kastrup Tower',
      ]);
      await page.getByLabel('Position').selectOption('EKCH_DEL');
      await page.getByLabel('Date').fill(isoDay(4));
      await page.getByLabel('Start (UTC)').fill('14:00');
      await page.getByLabel('End (UTC)').fill('15:30');
      await page.getByLabel('Type').selectOption({ label: 'Event' });
      await Promise.all([
        page.waitForURL(/\/my\/bookings\?done=booked/, { waitUntil: 'networkidle' }),
        page.click('button:has-text("Book")'),
      ]);
      await expect(page.locator('.notice').textContent()).resolves.toMatch(/^Booked: EKCH_DEL .*, 14:00–15:30 UTC\.$/);
      expect(await page.locator('.booking .callsign').allTextContents()).toEqual(['EKCH_TWR', 'EKCH_APP', 'EKCH_DEL']);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

      // The API lists it.
      const listed = (await (await fetch(new URL('/api/bookings?callsign=EKCH_DEL', server.url))).json()) as unknown[];
      expect(listed).toHaveLength(1);

      await Promise.all([
        page.waitForURL(/done=cancelled/, { waitUntil: 'networkidle' }),
        page.getByRole('button', { name: /^Cancel EKCH_DEL/ }).click(),
      ]);
      await expect(page.locator('.notice').textContent()).resolves.toMatch(/^Cancelled: EKCH_DEL/);
      expect(await page.locator('.booking .callsign').allTextContents()).toEqual(['EKCH_TWR', 'EKCH_APP']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('shows an error next to its field, described to assistive technology', async () => {
    const { page, close } = await open('/bookings/new', { viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      await page.getByLabel('Date').fill(isoDay(5));
      await page.getByLabel('Start (UTC)').fill('10:00');
      await page.getByLabel('End (UTC)').fill('10:00');
      await Promise.all([page.waitForURL(/\/bookings$/, { waitUntil: 'networkidle' }), page.click('button:has-text("Book")')]);
      const end = page.getByLabel('End (UTC)');
      await expect(end.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(end.getAttribute('aria-describedby')).resolves.toBe('end-hint end_at-error');
      await expect(page.locator('#end_at-error').textContent()).resolves.toBe('Start and end time cannot be the same');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'booking-form-error-390-light.png'), fullPage: true });
      expect(await seriousFindings(page, 'form with errors')).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  for (const url of ['/bookings/new', '/my/bookings']) {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1366, height: 800 },
      ]) {
        it(`${url} passes axe and fits the width: ${colorScheme}, ${viewport.width}px`, async () => {
          const { page, problems, close } = await open(url, { colorScheme, viewport, bypassCSP: true });
          try {
            expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
            const name = url === '/bookings/new' ? 'booking-form' : 'my-bookings';
            await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${viewport.width}-${colorScheme}.png`), fullPage: true });
            expect(await seriousFindings(page, `${url} ${colorScheme} ${viewport.width}px`)).toEqual([]);
            expect(problems).toEqual([]);
          } finally {
            await close();
          }
        }, 60_000);
      }
    }
  }
});
