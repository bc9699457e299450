// The schedule page in a real Chromium (the system's, driven by playwright-core) against a real
// server process with an imported division: bookings shown, filters, local times with JavaScript
// and the UTC schedule without, no console errors or CSP violations, an axe-core scan in light and
// dark, and screenshots at phone and desktop widths in test-results/ for a person to look at.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE, launchBrowser, SCREENSHOTS, SKIP_BROWSER } from '../../support/browser.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ADA, buildBooking, buildPosition, buildUser } from '../../support/factories.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

const skip = SKIP_BROWSER;

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const at = (days: number, hour: number) => today + days * DAY + hour * 3_600_000;
const ymdHis = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

const BOOKINGS = [
  { callsign: 'EKCH_TWR', start: at(1, 10), end: at(1, 12), tag: 1 },
  { callsign: 'EKCH_APP', start: at(1, 14), end: at(1, 16), tag: null },
  { callsign: 'EKDK_CTR', start: at(2, 18), end: at(2, 21), tag: 2 },
  { callsign: 'ENGM_TWR', start: at(3, 9), end: at(3, 11), tag: 3 },
  { callsign: 'ENBR_APP', start: at(3, 22), end: at(4, 1), tag: null },
  { callsign: 'EKCH_TWR', start: at(5, 7), end: at(5, 9), tag: null },
];

const DIVISION = {
  areas: ['Denmark', 'Norway'],
  users: [buildUser({ id: ADA, first_name: 'Adalbert', last_name: 'Lindqvist', email: 'adalbert@example.org' })],
  positions: [
    ...(['EKCH_TWR', 'EKCH_APP', 'EKDK_CTR', 'ENGM_TWR'] as const).map((callsign) => buildPosition(callsign, { rating: 'S1' })),
    { callsign: 'ENBR_APP', name: 'Bergen Approach', frequency: '121.000', area: 'Norway', rating: 'S1' },
  ],
  bookings: BOOKINGS.map((b) => buildBooking({ callsign: b.callsign, time_start: ymdHis(b.start), time_end: ymdHis(b.end), tag: b.tag })),
};

const ZONE = 'America/New_York';
const localTime = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(ms);

/** What went wrong in a page: console errors, uncaught exceptions, CSP violations, failed requests. */
interface Trouble {
  problems: string[];
}

async function open(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; trouble: Trouble; close: () => Promise<void> }> {
  const context = await browser.newContext({ locale: 'en-GB', timezoneId: ZONE, ...options });
  const page = await context.newPage();
  const trouble: Trouble = { problems: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') trouble.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => trouble.problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => trouble.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) trouble.problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  // Registered before any of the page's own code runs; devtools-injected, so the CSP does not apply to it.
  // (Page code as strings: the tests are type-checked without the DOM's types.)
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  );
  // Until the network is idle, not just 'load': Chromium asks for the icon after the load event,
  // and a navigation made before it arrives aborts that request (reported as a failed request).
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, trouble, close: () => context.close() };
}

const rowCallsigns = (page: Page) => page.locator('tbody th[scope="row"]').allTextContents();

describe.skipIf(skip)('schedule page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    const databaseUrl = freshDatabaseUrl();
    await importData({ DATABASE_URL: databaseUrl }, DIVISION);
    server = await startServer({ DATABASE_URL: databaseUrl, SITE_NAME: 'Nordic vACC' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  it('shows the bookings by UTC day, and each one in local time when JavaScript runs', async () => {
    const { page, trouble, close } = await open(browser, server.url);
    try {
      await expect(page.title()).resolves.toBe('Nordic vACC — controller bookings');
      expect(await rowCallsigns(page)).toEqual(BOOKINGS.map((b) => b.callsign));
      // Four days with bookings, and today (none booked) so that its jump leads somewhere.
      expect(await page.locator('main h2').count()).toBe(5);
      const locals = page.locator('td.time .local');
      await expect.poll(() => locals.count()).toBe(BOOKINGS.length);
      const first = (await locals.first().textContent()) ?? '';
      expect(first).toContain(localTime(BOOKINGS[0]!.start));
      expect(first).toContain(localTime(BOOKINGS[0]!.end));
      expect(first).toContain(`(${ZONE})`);
      await expect(page.locator('.local-note').isVisible()).resolves.toBe(true);
      expect(trouble.problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the UTC schedule alone without JavaScript', async () => {
    const { page, trouble, close } = await open(browser, server.url, { javaScriptEnabled: false });
    try {
      expect(await rowCallsigns(page)).toEqual(BOOKINGS.map((b) => b.callsign));
      expect(await page.locator('.local').count()).toBe(0);
      await expect(page.locator('.local-note').isVisible()).resolves.toBe(false);
      const utc = await page.locator('td.time .utc').first().textContent();
      expect(utc).toBe('10:00–12:00');
      expect(trouble.problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('filters by area and by callsign prefix through the form, and links the matching feed', async () => {
    const { page, trouble, close } = await open(browser, server.url);
    try {
      // The filters are folded until a filter is in use.
      await page.getByText('Filters and calendar feed').click();
      await page.selectOption('#area', 'Norway');
      await Promise.all([page.waitForURL(/area=Norway/, { waitUntil: 'networkidle' }), page.click('button[type="submit"]')]);
      expect(await rowCallsigns(page)).toEqual(['ENGM_TWR', 'ENBR_APP']);
      await expect(page.locator('#area').inputValue()).resolves.toBe('Norway');

      await page.selectOption('#area', 'Denmark');
      await page.fill('#callsign', 'ekch_t');
      await Promise.all([page.waitForURL(/callsign=ekch_t/, { waitUntil: 'networkidle' }), page.click('button[type="submit"]')]);
      expect(await rowCallsigns(page)).toEqual(['EKCH_TWR', 'EKCH_TWR']);
      await expect(page.locator('#callsign').inputValue()).resolves.toBe('EKCH_T');
      const feed = await page.locator('nav a[type="text/calendar"]').getAttribute('href');
      expect(feed).toBe('/calendar/bookings.ics?area=denmark&callsign=EKCH_T*');
      const ics = await (await fetch(new URL(feed!, server.url))).text();
      expect(ics.match(/^SUMMARY:.*$/gm)).toEqual(['SUMMARY:EKCH_TWR (Training)', 'SUMMARY:EKCH_TWR']);

      await page.fill('#callsign', 'ZZZ');
      await Promise.all([page.waitForURL(/callsign=ZZZ/, { waitUntil: 'networkidle' }), page.click('button[type="submit"]')]);
      expect(await rowCallsigns(page)).toEqual([]);
      await expect(page.locator('main .empty').textContent()).resolves.toContain('No bookings');
      expect(trouble.problems).toEqual([]);
    } finally {
      await close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [
      { width: 375, height: 812 },
      { width: 1280, height: 800 },
    ]) {
      it(`passes axe (no serious or critical violation), fits the width and is screenshot: ${colorScheme}, ${viewport.width}×${viewport.height}`, async () => {
        // axe is injected as a script of its own, which the page's CSP would refuse: only this context bypasses it.
        const { page, trouble, close } = await open(browser, server.url, { colorScheme, viewport, bypassCSP: true });
        try {
          await expect.poll(() => page.locator('td.time .local').count()).toBe(BOOKINGS.length);
          const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
          expect(background).toBe(colorScheme === 'dark' ? 'rgb(18, 21, 25)' : 'rgb(255, 255, 255)');
          // Responsive: nothing wider than the screen.
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({
            path: path.join(SCREENSHOTS, `schedule-${viewport.width}x${viewport.height}-${colorScheme}.png`),
            fullPage: true,
          });
          await page.addScriptTag({ path: AXE });
          const violations = (await page.evaluate(
            `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
          )) as Array<{ id: string; impact: string; nodes: string[] }>;
          expect(Array.isArray(violations)).toBe(true);
          if (violations.length > 0) console.info(`axe, ${colorScheme} ${viewport.width}px, findings: ${JSON.stringify(violations)}`);
          expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
          expect(trouble.problems).toEqual([]);
        } finally {
          await close();
        }
      }, 60_000);
    }
  }
});
