import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir, TEST_DIALECT, writeImportFile } from '../support/context.js';
import { buildUser } from '../support/factories.js';
import { createKey, runCli, runCliAsync, startServer } from '../support/processes.js';

const CID = 1000001;
const POSITIONS = Array.from({ length: 6 }, (_, i) => `ESSA_${String.fromCharCode(65 + i)}_TWR`);
const DATA = {
  areas: ['Sweden'],
  users: [buildUser({ id: CID, rating: 'C3' })],
  positions: POSITIONS.map((callsign, i) => ({ callsign, name: `Tower ${i}`, frequency: `118.${100 + i}`, area: 'Sweden', rating: 'S1' })),
};

// Each test runs several CLI processes and servers: on a loaded machine that takes a while.
const SLOW_MS = 180_000;

describe.runIf(TEST_DIALECT === 'sqlite')('npx sector backup (SQLite)', () => {
  it(
    'copies the database while a write burst runs: every booking acknowledged before it began is in the copy, which passes integrity_check and serves',
    { timeout: SLOW_MS },
    async () => {
      const dir = tempDir();
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'live.db')}` };
      expect(runCli(['import', writeImportFile(DATA)], env).code).toBe(0);
      const token = createKey(env, 'burst');
      const server = await startServer(env);

      // One writer per position, each booking the next hour: no two writes conflict.
      const acknowledged: Array<{ id: number; at: number }> = [];
      let stop = false;
      const writer = async (callsign: string) => {
        for (let hour = 0; !stop; hour++) {
          const start = new Date(Date.UTC(2031, 0, 1) + hour * 3_600_000);
          const date = `${start.getUTCDate()}/${start.getUTCMonth() + 1}/${start.getUTCFullYear()}`;
          const hh = String(start.getUTCHours()).padStart(2, '0');
          const res = await fetch(`${server.url}/api/bookings/create`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ cid: CID, date, start_at: `${hh}:00`, end_at: `${hh}:30`, position: callsign }),
          });
          const body = (await res.json()) as { booking?: { id: number } };
          if (res.status === 201) acknowledged.push({ id: body.booking!.id, at: Date.now() });
          else throw new Error(`write refused: ${res.status} ${JSON.stringify(body)}`);
        }
      };
      const writers = POSITIONS.map(writer);
      try {
        while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 20));
        const began = Date.now();
        const before = acknowledged.filter((a) => a.at < began).map((a) => a.id);
        const copy = path.join(dir, 'copy.db');
        const backup = await runCliAsync(['backup', copy], env);
        const duringBackup = acknowledged.filter((a) => a.at >= began).length;
        stop = true;
        await Promise.all(writers);

        expect(backup.stderr).toBe('');
        expect(backup.code).toBe(0);
        expect(backup.stdout).toMatch(
          new RegExp(`^Backed up .*live\\.db to .*copy\\.db: \\d+ bytes, \\d+ bookings, integrity check ok\\.\\n$`),
        );
        // The burst really went on while the backup ran.
        expect(duringBackup).toBeGreaterThan(0);

        const db = new SQLite(copy, { readonly: true });
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
          const ids = new Set(db.prepare('SELECT id FROM bookings').pluck().all() as number[]);
          expect(before.filter((id) => !ids.has(id))).toEqual([]);
          expect(Number(/(\d+) bookings/.exec(backup.stdout)![1])).toBe(ids.size);
        } finally {
          db.close();
        }
        expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

        // The copy is a working Sector database: a server on it serves the bookings.
        const restored = await startServer({ DATABASE_URL: `sqlite:${copy}` });
        try {
          const listed = (await (await fetch(`${restored.url}/api/bookings`)).json()) as Array<{ id: number }>;
          const served = new Set(listed.map((b) => b.id));
          expect(before.filter((id) => !served.has(id))).toEqual([]);
        } finally {
          await restored.stop();
        }

        // An existing file is kept unless --force; with it, it is replaced by a checked copy.
        const size = fs.statSync(copy).size;
        const again = runCli(['backup', copy], env);
        expect(again.code).toBe(1);
        expect(again.stderr).toMatch(
          /^sector: .*copy\.db already exists; choose another file or pass --force to replace it; nothing was written/,
        );
        expect(again.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(fs.statSync(copy).size).toBe(size);
        expect(runCli(['backup', copy, '--force'], env).code).toBe(0);
      } finally {
        stop = true;
        await Promise.allSettled(writers);
        await server.stop();
      }
    },
  );

  it('refuses a missing database with one line, creating nothing', { timeout: SLOW_MS }, () => {
    const dir = tempDir();
    const missing = runCli(['backup', path.join(dir, 'x.db')], { DATABASE_URL: `sqlite:${path.join(dir, 'none.db')}` });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^sector: no SQLite database at .*none\.db; nothing was written/);
    expect(fs.existsSync(path.join(dir, 'none.db'))).toBe(false);
  });
});

describe('npx sector backup (PostgreSQL)', () => {
  it('refuses with one line pointing at pg_dump, without touching the database', { timeout: SLOW_MS }, () => {
    const r = runCli(['backup', path.join(tempDir(), 'x.db')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sector: backup works on SQLite; for PostgreSQL use pg_dump -Fc (see docs/operations.md)\n');
  });
});
