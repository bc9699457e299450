// Hostile data reaches the operator's terminal through the CLI: the network's responses, file names,
// stored URLs. Every value a table or message shows has its control characters and bidirectional
// controls escaped; --json stays JSON that parses back to the very same values.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, tempDir } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { api, dateIn, eventually, prepareDivision } from '../../support/network-sync.js';
import { runCli, runCliAsync, startServer } from '../../support/processes.js';
import { addWebhook } from '../../support/seed.js';

/** An OSC window title ended by BEL, a clear-screen, a one-character CSI (C1), a right-to-left override, an isolate, DEL. */
const HOSTILE = '\u001b]0;owned\u0007\u001b[2J\u009b31mred\u202eevil\u2066x\u2069\u007f';
/** What the escaped form shows. */
const SHOWN = '\\u001b]0;owned\\u0007\\u001b[2J\\u009b31mred\\u202eevil\\u2066x\\u2069\\u007f';
/** Anything a terminal would act on, line feeds (which separate lines) aside. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function expectPrintable(text: string): void {
  expect(text).not.toMatch(RAW);
}

const SLOW_MS = 180_000;

describe('CLI output is safe to print', { timeout: SLOW_MS }, () => {
  let network: http.Server;
  let networkUrl: string;

  beforeAll(async () => {
    // A network that refuses every booking with a message meant for the operator's terminal.
    network = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ message: HOSTILE }));
      });
    });
    await new Promise<void>((r) => network.listen(0, '127.0.0.1', r));
    networkUrl = `http://127.0.0.1:${(network.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    network.closeAllConnections();
    await new Promise((r) => network.close(r));
  });

  it("network:status shows the network's message escaped; --json keeps it exactly", async () => {
    const { env, token } = await prepareDivision(networkUrl);
    const server = await startServer(env);
    try {
      const b = await api(server.url, token).create({
        cid: 1_200_001,
        date: dateIn(3),
        start_at: '10:00',
        end_at: '11:00',
        position: 'EKCH_TWR',
      });
      // Waited for in this process: network:status itself runs below.
      const refused = await eventually(
        () =>
          readDatabase(env.DATABASE_URL!, (db) =>
            db.selectFrom('network_pushes').selectAll().where('booking_id', '=', b.id).where('status', '=', 'refused').executeTakeFirst(),
          ),
        'the refusal',
      );
      expect(refused.last_error).toBe(`HTTP 422: ${HOSTILE}`);

      const json = await runCliAsync(['network:status', '--json'], env);
      expectPrintable(json.stdout);
      expect((JSON.parse(json.stdout) as Array<{ last_error: string }>)[0]!.last_error).toBe(`HTTP 422: ${HOSTILE}`);

      const table = await runCliAsync(['network:status'], env);
      expect(table.code).toBe(0);
      expectPrintable(table.stdout);
      expectPrintable(table.stderr);
      expect(table.stdout).toContain(`HTTP 422: ${SHOWN}`);
    } finally {
      await server.stop();
    }
  });

  it('import and audit show a hostile file name escaped', () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const name = `roster${HOSTILE}.json`;
    const file = path.join(tempDir(), name);
    fs.writeFileSync(file, JSON.stringify(buildDivision({ users: [buildUser()] })));
    const imported = runCli(['import', file], env);
    expect(imported.code, imported.stderr).toBe(0);
    expectPrintable(imported.stderr);
    expect(imported.stderr).toContain(`roster${SHOWN}.json`);

    const table = runCli(['audit'], env);
    expect(table.code).toBe(0);
    expectPrintable(table.stdout);
    // The table cuts long targets (--json has them whole).
    expect(table.stdout).toContain(`roster${SHOWN.slice(0, 24)}`);

    const json = runCli(['audit', '--json'], env);
    expectPrintable(json.stdout);
    const targets = json.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { target: string }).target);
    expect(targets).toContain(name);

    // A file that cannot be read: the one error line is escaped too.
    const missing = runCli(['import', `${file}.missing`], env);
    expect(missing.code).toBe(1);
    expectPrintable(missing.stderr);
    expect(missing.stderr).toContain(SHOWN);
  });

  it('webhook:list and webhook:remove show a stored URL escaped', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const { id } = await addWebhook(env, 'https://hooks.example.org/in');
    // A URL stored before such URLs were refused.
    const url = `https://hooks.example.org/${HOSTILE}`;
    const db = openDatabase(env.DATABASE_URL);
    try {
      await sql`UPDATE webhooks SET url = ${url} WHERE id = ${id}`.execute(db.kysely);
    } finally {
      await db.close();
    }

    const table = runCli(['webhook:list'], env);
    expect(table.code).toBe(0);
    expectPrintable(table.stdout);
    expect(table.stdout).toContain(`https://hooks.example.org/${SHOWN}`);
    const json = runCli(['webhook:list', '--json'], env);
    expectPrintable(json.stdout);
    expect((JSON.parse(json.stdout) as Array<{ url: string }>)[0]!.url).toBe(url);

    const removed = runCli(['webhook:remove', id], env);
    expect(removed.code).toBe(0);
    expectPrintable(removed.stderr);
    expect(removed.stderr).toContain(SHOWN);
  });

  it("commander's own errors quote a hostile argument escaped", () => {
    const r = runCli(['audit', `--${HOSTILE}`], { DATABASE_URL: freshDatabaseUrl() });
    expect(r.code).toBe(2);
    expectPrintable(r.stderr);
  });
});
