// Signing in and out in a real Chromium against a server process and the VATSIM Connect stand-in:
// the account bar, the bookers' names for members, sign-out, and the page of a refused sign-in,
// each scanned by axe-core in light and dark at phone and desktop widths.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE, launchBrowser, SCREENSHOTS, SKIP_BROWSER, startConnectServer } from '../../support/browser.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ADA, buildBooking, buildPosition, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

const skip = SKIP_BROWSER;

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const ymdHis = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const DIVISION = {
  areas: ['Denmark'],
  users: [buildUser({ id: ADA, first_name: 'Adalbert', last_name: 'Lindqvist' })],
  positions: [buildPosition('EKCH_TWR', { rating: 'S1' }), buildPosition('EKCH_APP', { rating: 'S1' })],
  bookings: [
    buildBooking({
      callsign: 'EKCH_TWR',
      time_start: ymdHis(today + DAY + 10 * 3_600_000),
      time_end: ymdHis(today + DAY + 12 * 3_600_000),
      tag: 1,
    }),
    buildBooking({
      callsign: 'EKCH_APP',
      time_start: ymdHis(today + 2 * DAY + 8 * 3_600_000),
      time_end: ymdHis(today + 2 * DAY + 9 * 3_600_000),
    }),
  ],
};

async function open(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ locale: 'en-GB', ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, problems, close: () => context.close() };
}

async function axeFindings(page: Page): Promise<Array<{ id: string; impact: string }>> {
  await page.addScriptTag({ path: AXE });
  return (await page.evaluate(
    `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as Array<{ id: string; impact: string }>;
}

describe.skipIf(skip)('signing in and out in Chromium', () => {
  let connect: ConnectStandIn;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    connect = await startConnectStandIn();
    connect.setUser(connectUser(1234567, { id: 3, short: 'S2' }, { name_first: 'Karin', name_last: 'Holm' }));
    const databaseUrl = freshDatabaseUrl();
    await importData({ DATABASE_URL: databaseUrl }, DIVISION);
    server = await startConnectServer(databaseUrl, connect);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    // beforeAll may have failed part way.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    await Promise.all([browser?.close(), server?.stop(), connect?.close()]);
  });

  it('signs in from the schedule page, shows who booked, and signs out', async () => {
    connect.setConsent(true);
    const { page, problems, close } = await open(browser, server.url);
    try {
      await expect(page.locator('tbody').first().textContent()).resolves.not.toContain('Lindqvist');
      // Signing in from the schedule lands on the member's home (contract §20), linked as "My page".
      await Promise.all([page.waitForURL(`${server.url}/my`, { waitUntil: 'networkidle' }), page.click('text=Sign in')]);
      await expect(page.locator('.account').textContent()).resolves.toContain('Karin Holm');
      await expect(page.locator('.account a', { hasText: 'My page' }).getAttribute('href')).resolves.toBe('/my');
      await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
      await expect(page.locator('tbody').first().textContent()).resolves.toContain('Adalbert Lindqvist');
      await expect(page.locator('a', { hasText: 'Book a position' }).getAttribute('href')).resolves.toBe('/bookings/new');
      await expect(page.locator('a', { hasText: 'My bookings' }).getAttribute('href')).resolves.toBe('/my/bookings');
      await Promise.all([page.waitForURL(`${server.url}/`, { waitUntil: 'networkidle' }), page.click('button:has-text("Sign out")')]);
      await expect(page.locator('.account').textContent()).resolves.toContain('Sign in');
      await expect(page.locator('tbody').first().textContent()).resolves.not.toContain('Lindqvist');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1366, height: 768 },
    ]) {
      it(`signed-in page and refused sign-in pass axe and fit: ${colorScheme}, ${viewport.width}px`, async () => {
        connect.setConsent(true);
        const { page, problems, close } = await open(browser, server.url, { colorScheme, viewport, bypassCSP: true });
        try {
          await Promise.all([page.waitForURL(`${server.url}/my`, { waitUntil: 'networkidle' }), page.click('text=Sign in')]);
          await expect(page.locator('.account').textContent()).resolves.toContain('Karin Holm');
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: path.join(SCREENSHOTS, `signed-in-${viewport.width}-${colorScheme}.png`), fullPage: true });
          const onPage = await axeFindings(page);
          expect(onPage.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

          connect.setConsent(false);
          await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
          await expect(page.locator('h1').textContent()).resolves.toBe('Sign-in failed');
          await expect(page.locator('a', { hasText: 'Try again' }).count()).resolves.toBe(1);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: path.join(SCREENSHOTS, `sign-in-refused-${viewport.width}-${colorScheme}.png`), fullPage: true });
          const onRefusal = await axeFindings(page);
          expect(onRefusal.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
          // The refusal is a 400, which the page records as a failed response; nothing else may go wrong.
          expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
        } finally {
          await close();
        }
      }, 60_000);
    }
  }
});
