// The pages' tests drive the system's Chromium in its headless shell, Debian's
// chromium-headless-shell (playwright-core never downloads one): it renders with the same engine as
// the full browser for about a third of the CPU. On CI the browser tests must run (.ci/run installs
// it); elsewhere a missing browser skips them, saying so. The pages read the same queries on both
// databases (test/http/ covers both), so the browser runs in the SQLite half only.
import fs from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import type { ConnectStandIn } from './connect-stand-in.js';
import { freshDatabaseUrl, TEST_DIALECT } from './context.js';
import type { UserRecord } from './factories.js';
import { SIGN_IN_ENV, signInOnDatabase } from './members.js';
import { ROOT, startServer, type ServerProcess } from './processes.js';
import { importData } from './seed.js';

const CHROMIUM = '/usr/bin/chromium-headless-shell';
/** Screenshots for a person to look at (not committed). */
export const SCREENSHOTS = path.join(ROOT, 'test-results');
/** axe-core, injected into a page with page.addScriptTag({ path: AXE }). */
export const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const browserMissing = !fs.existsSync(CHROMIUM);
if (browserMissing && !process.env.CI) {
  console.warn(
    `Skipping the browser tests: ${CHROMIUM} is missing (apt-get install chromium-headless-shell). On CI (CI set) they fail instead.`,
  );
}
export const SKIP_BROWSER = (browserMissing && !process.env.CI) || TEST_DIALECT === 'postgres';

export function launchBrowser(): Promise<Browser> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** axe findings of serious or critical impact (axe is injected: only a context bypassing the CSP allows it). */
export async function seriousFindings(page: Page, label: string): Promise<unknown[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(
    `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as Array<{ id: string; impact: string; nodes: string[] }>;
  if (violations.length > 0) console.info(`axe, ${label}, findings: ${JSON.stringify(violations)}`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * axe's colour-contrast findings only: the other theme's one check (issue 56's CI budget). The pages'
 * structure is the same in both themes and is scanned in full in one; only the colours differ.
 */
export async function contrastFindings(page: Page): Promise<unknown[]> {
  await page.addScriptTag({ path: AXE });
  return (await page.evaluate(
    `axe.run({ runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as unknown[];
}

/** A page of the server opened by a signed-in member (their session cookie), in a context of its own. */
export async function openAs(
  browser: Browser,
  server: { url: string },
  cookie: string,
  url: string,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ locale: 'en-GB', ...options });
  await context.addCookies([{ name: 'sector_session', value: cookie, url: server.url }]);
  const page = await context.newPage();
  await page.goto(new URL(url, server.url).toString(), { waitUntil: 'networkidle' });
  return { page, close: () => context.close() };
}

/** A server process on a database of its own, members signed in on it, and a browser to open its pages. */
export interface SignedInSite {
  server: ServerProcess;
  browser: Browser;
  /** Each member's session cookie (`sector_session`), by CID. */
  cookies: Record<number, string>;
  close(): Promise<void>;
}

/**
 * Imports `division` into a fresh database, starts a server on it with sign-in on (the Nordic vACC of
 * EUD, plus `env`), signs `members` in on that database and launches the browser.
 */
export async function startSignedInSite(division: unknown, members: UserRecord[], env: Record<string, string> = {}): Promise<SignedInSite> {
  const databaseUrl = freshDatabaseUrl();
  await importData({ DATABASE_URL: databaseUrl }, division);
  const server = await startServer({ DATABASE_URL: databaseUrl, SITE_NAME: 'Nordic vACC', DIVISION: 'EUD', ...SIGN_IN_ENV, ...env });
  const cookies: Record<number, string> = {};
  for (const member of members) cookies[member.id] = await signInOnDatabase(databaseUrl, member);
  const browser = await launchBrowser();
  return {
    server,
    browser,
    cookies,
    close: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * A server on `databaseUrl` whose members sign in through the VATSIM Connect stand-in: on a port
 * chosen before it starts, so that PUBLIC_URL (the stand-in's redirect back) names it.
 */
export async function startConnectServer(
  databaseUrl: string,
  connect: ConnectStandIn,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    CONNECT_URL: connect.url,
    CONNECT_CLIENT_ID: connect.clientId,
    CONNECT_CLIENT_SECRET: connect.clientSecret,
    ...env,
  });
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
