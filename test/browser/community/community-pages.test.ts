// The pages of feedback, votes and the sweatbox (contract §23) in a real Chromium against one server
// process: a Moderator books a sweatbox session and an Administrator adds a vote through the pages,
// a member sends feedback and votes; each page then passes axe and fits 375 and 1366 pixels (light).
import { type Browser, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, seriousFindings, type SignedInSite, SKIP_BROWSER, startSignedInSite } from '../../support/browser.js';
import { buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { type ServerProcess } from '../../support/processes.js';

const MEM = buildUser({ id: 1000060, first_name: 'Maria', last_name: 'Member', rating: 'S2', division: 'EUD' });
const MOD = buildUser({ id: 1000061, first_name: 'Mona', last_name: 'Moderator', rating: 'C1', division: 'EUD' });
const ADM = buildUser({ id: 1000062, first_name: 'Alma', last_name: 'Admin', rating: 'C1', division: 'EUD' });

const DIVISION = {
  areas: ['Denmark'],
  users: [MEM, MOD, ADM],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
  roles: [
    buildRole({ user_id: MOD.id, area: 'Denmark', role: 'Moderator' }),
    buildRole({ user_id: ADM.id, area: null, role: 'Administrator' }),
  ],
};

describe.skipIf(SKIP_BROWSER)('feedback, votes and the sweatbox in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let site: SignedInSite;
  const open = (who: number, url: string, options: BrowserContextOptions = {}) =>
    openAs(browser, server, site.cookies[who]!, url, { bypassCSP: true, ...options });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    site = await startSignedInSite(DIVISION, [MEM, MOD, ADM]);
    ({ server, browser } = site);
    const mod = await open(MOD.id, '/staff/sweatbox');
    try {
      await mod.page.getByLabel('Position').selectOption('EKCH_TWR');
      await mod.page.getByLabel('Day (UTC)').fill(tomorrow);
      await mod.page.getByLabel('Start (UTC)').fill('18:00');
      await mod.page.getByLabel('End (UTC)').fill('20:00');
      await Promise.all([
        mod.page.waitForURL(/done=created/, { waitUntil: 'networkidle' }),
        mod.page.click('button:has-text("Book session")'),
      ]);
    } finally {
      await mod.close();
    }
    const adm = await open(ADM.id, '/staff/votes');
    try {
      await adm.page.getByLabel('Question').fill('Which frequency layout do you prefer?');
      await adm.page.getByLabel('Options').fill('Layout A\nLayout B');
      await adm.page.getByLabel('Closing day (UTC)').fill(tomorrow);
      await Promise.all([adm.page.waitForURL(/done=created/, { waitUntil: 'networkidle' }), adm.page.click('button:has-text("Add vote")')]);
    } finally {
      await adm.close();
    }
    const mem = await open(MEM.id, '/feedback');
    try {
      await mem.page.getByLabel('Position').fill('EKCH_TWR');
      await mem.page.getByLabel('Feedback', { exact: true }).fill('Very helpful tower controller.');
      await Promise.all([
        mem.page.waitForURL(/done=sent/, { waitUntil: 'networkidle' }),
        mem.page.click('button:has-text("Send feedback")'),
      ]);
    } finally {
      await mem.close();
    }
  }, 120_000);
  afterAll(() => site.close());

  it('lets a member vote through the page, without JavaScript', async () => {
    const { page, close } = await open(MEM.id, '/votes/1', { javaScriptEnabled: false });
    try {
      await page.getByLabel('Layout B').check();
      await Promise.all([page.waitForURL(/done=voted/), page.click('button:has-text("Cast my vote")')]);
      await expect(page.locator('.notice').textContent()).resolves.toContain('Your vote has been counted.');
    } finally {
      await close();
    }
  }, 60_000);

  for (const viewport of [
    { width: 375, height: 667 },
    { width: 1366, height: 768 },
  ]) {
    for (const [who, url, name] of [
      [MOD.id, '/staff/sweatbox', 'sweatbox'],
      [MOD.id, '/staff/sweatbox/1', 'sweatbox-session'],
      [ADM.id, '/staff/votes', 'staff-votes'],
      [MEM.id, '/votes', 'votes'],
      [MEM.id, '/votes/1', 'vote'],
      [MEM.id, '/feedback', 'feedback'],
      [MOD.id, '/staff/feedback', 'staff-feedback'],
    ] as const) {
      it(`${name} passes axe and fits: ${viewport.width}px`, async () => {
        const { page, close } = await open(who, url, { colorScheme: 'light', viewport });
        try {
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
          expect(await seriousFindings(page, `${name} ${viewport.width}`)).toEqual([]);
        } finally {
          await close();
        }
      }, 60_000);
    }
  }
});
