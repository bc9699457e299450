// The schedule page on a small phone (375×667) in a real Chromium: with bookings on many days,
// "On now" and a signed-in member's account bar, the first booking is on the first screen (the
// filters are folded, the day links one row); the folded filters open and work without JavaScript.
import path from 'node:path';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE, SCREENSHOTS, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { type DataFeedStandIn, startDataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { ADA, buildBooking, buildPosition, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const ymdHis = (days: number, hour: number) => new Date(today + days * DAY + hour * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const PHONE = { width: 375, height: 667 };

const ADALBERT = buildUser({ id: ADA, first_name: 'Adalbert', last_name: 'Lindqvist', rating: 'C1', atc_active_areas: { Denmark: true } });
/** A booking on each of the next twelve days: twelve day links, more than one row of them. */
const DIVISION = {
  areas: ['Denmark', 'Norway'],
  users: [ADALBERT],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ENGM_TWR')],
  bookings: Array.from({ length: 12 }, (_, i) =>
    buildBooking({
      callsign: i % 3 === 2 ? 'ENGM_TWR' : 'EKCH_TWR',
      time_start: ymdHis(i + 1, 10),
      time_end: ymdHis(i + 1, 12),
      tag: i === 0 ? 1 : null,
    }),
  ),
};

describe.skipIf(SKIP_BROWSER)('schedule page on a 375×667 phone in Chromium', () => {
  let feed: DataFeedStandIn;
  let server: ServerProcess;
  let browser: Browser;
  let cookie: string;
  let site: SignedInSite;

  async function open(options: BrowserContextOptions & { signedIn?: boolean } = {}): Promise<{ page: Page; close: () => Promise<void> }> {
    const { signedIn, ...contextOptions } = options;
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE, ...contextOptions });
    if (signedIn) await context.addCookies([{ name: 'sector_session', value: cookie, url: server.url }]);
    const page = await context.newPage();
    await page.goto(server.url, { waitUntil: 'networkidle' });
    return { page, close: () => context.close() };
  }

  /** Where the first booking's row is on the screen, and whether the page scrolled. */
  const firstRow = async (page: Page) => ({
    box: await page.locator('main tbody tr').first().boundingBox(),
    scrolled: await page.evaluate('window.scrollY'),
  });

  beforeAll(async () => {
    feed = await startDataFeedStandIn();
    feed.set(new Date().toISOString(), []);
    site = await startSignedInSite(DIVISION, [ADALBERT], { DATA_FEED_URL: feed.url });
    ({ server, browser } = site);
    cookie = site.cookies[ADALBERT.id]!;
  }, 120_000);
  afterAll(async () => {
    await site.close();
    await feed.close();
  });

  for (const signedIn of [false, true]) {
    it(`shows the first booking on the first screen of a 375×667 phone without scrolling, ${signedIn ? 'signed in' : 'signed out'}`, async () => {
      const { page, close } = await open({ signedIn, bypassCSP: true });
      try {
        await expect(page.locator('.account').textContent()).resolves.toContain(signedIn ? 'Sign out' : 'Sign in');
        await expect(page.locator('#on-now').isVisible()).resolves.toBe(true);
        expect(await page.locator('.days a').count()).toBe(13);
        // The first screen as it is, for a person to look at.
        await page.screenshot({ path: path.join(SCREENSHOTS, `schedule-375x667-${signedIn ? 'signed-in' : 'signed-out'}.png`) });
        const { box, scrolled } = await firstRow(page);
        expect(scrolled).toBe(0);
        expect(box).not.toBeNull();
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
        await page.addScriptTag({ path: AXE });
        const violations = (await page.evaluate(
          `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
        )) as Array<{ id: string; impact: string; nodes: string[] }>;
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  it('opens the folded filters and filters without JavaScript; a filter in use keeps them open', async () => {
    const { page, close } = await open({ javaScriptEnabled: false });
    try {
      await expect(page.locator('#area').isVisible()).resolves.toBe(false);
      await page.getByText('Filters and calendar feed').click();
      await expect(page.locator('#area').isVisible()).resolves.toBe(true);
      await page.selectOption('#area', 'Norway');
      await Promise.all([page.waitForURL(/area=Norway/, { waitUntil: 'networkidle' }), page.click('button[type="submit"]')]);
      expect(new Set(await page.locator('tbody th[scope="row"]').allTextContents())).toEqual(new Set(['ENGM_TWR']));
      await expect(page.locator('#area').isVisible()).resolves.toBe(true);
      await expect(page.locator('#area').inputValue()).resolves.toBe('Norway');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'schedule-375x667-filtered.png'), fullPage: true });
    } finally {
      await close();
    }
  }, 60_000);
});
