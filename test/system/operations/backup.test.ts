import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { tempDir, TEST_DIALECT } from '../../support/context.js';
import { buildBooking, buildDivision, buildUser } from '../../support/factories.js';
import { runCli, runCliAsync, startServer } from '../../support/processes.js';
import { createKey, importData } from '../../support/seed.js';

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
      await importData(env, DATA);
      const token = await createKey(env, 'burst');
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
          new RegExp(`^Backed up .*live\\.db to .*copy\\.db: \\d+ bytes, \\d+ bookings \\(0 deleted\\), integrity check ok\\.\\n$`),
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

  it(
    'never writes over the live database, its -wal, -shm or -journal (by any path, symlink or hard link), a directory, a device or a FIFO, even with --force',
    { timeout: SLOW_MS },
    async () => {
      const dir = tempDir();
      const live = path.join(dir, 'live.db');
      const env = { DATABASE_URL: `sqlite:${live}` };
      const data = buildDivision({
        bookings: [buildBooking(), buildBooking({ time_start: '2030-03-13 10:00:00', time_end: '2030-03-13 12:00:00', deleted: true })],
      });
      await importData(env, data);
      // An open connection, as the server holds: the -wal and -shm files exist while it is open.
      const reader = new SQLite(live);
      try {
        expect(reader.prepare('SELECT count(*) FROM bookings').pluck().get()).toBe(2);
        expect(fs.existsSync(`${live}-wal`) && fs.existsSync(`${live}-shm`)).toBe(true);
        const inode = fs.statSync(live).ino;

        const elsewhere = tempDir();
        const links: Record<string, string> = {
          'link-to-db': live,
          'link-to-wal': `${live}-wal`,
          'link-to-dir-of-db': dir,
        };
        for (const [name, to] of Object.entries(links)) fs.symlinkSync(to, path.join(elsewhere, name));
        fs.linkSync(live, path.join(elsewhere, 'hard-link.db'));
        const liveTargets = [
          live,
          `${dir}/./live.db`,
          path.relative(process.cwd(), live),
          `${live}-wal`,
          `${live}-shm`,
          `${live}-journal`, // does not exist: creating it would make SQLite roll back garbage
          path.join(elsewhere, 'link-to-db'),
          path.join(elsewhere, 'link-to-wal'),
          path.join(elsewhere, 'link-to-dir-of-db', 'live.db'),
          path.join(elsewhere, 'link-to-dir-of-db', 'live.db-shm'),
          path.join(elsewhere, 'hard-link.db'),
        ];
        for (const target of liveTargets) {
          for (const force of [[], ['--force']]) {
            const r = runCli(['backup', target, ...force], env);
            expect(r.stderr, target).toMatch(
              /^sector: .* is the live database or one of its files \(-wal, -shm, -journal\); write the copy somewhere else; nothing was written to /,
            );
            expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
            expect(r.code).toBe(1);
          }
        }
        expect(fs.statSync(live).ino).toBe(inode);
        expect(fs.existsSync(`${live}-journal`)).toBe(false);
        expect(reader.prepare('SELECT count(*) FROM bookings').pluck().get()).toBe(2);
        expect(reader.pragma('integrity_check', { simple: true })).toBe('ok');

        // Things that are not regular files are never replaced (a device node made here, never in /dev).
        const folder = path.join(elsewhere, 'folder');
        fs.mkdirSync(folder);
        const fifo = path.join(elsewhere, 'fifo');
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
        const device = path.join(elsewhere, 'null-device');
        const haveDevice = spawnSync('mknod', [device, 'c', '1', '3']).status === 0;
        const other = path.join(elsewhere, 'other.db');
        fs.writeFileSync(other, 'an earlier copy');
        fs.symlinkSync(other, path.join(elsewhere, 'link-to-other'));
        const refusals: Array<[string, RegExp]> = [
          [folder, /is a directory, not a regular file/],
          [fifo, /is a FIFO \(named pipe\), not a regular file/],
          [path.join(elsewhere, 'link-to-other'), /is a symbolic link; name the file itself/],
          ...(haveDevice ? [[device, /is a device, not a regular file/] as [string, RegExp]] : []),
        ];
        for (const [target, why] of refusals) {
          for (const force of [[], ['--force']]) {
            const r = runCli(['backup', target, ...force], env);
            expect(r.stderr, target).toMatch(why);
            expect(r.stderr).toMatch(/nothing was written to/);
            expect(r.code).toBe(1);
          }
        }
        expect(fs.statSync(folder).isDirectory()).toBe(true);
        expect(fs.statSync(fifo).isFIFO()).toBe(true);
        if (haveDevice) expect(fs.statSync(device).isCharacterDevice()).toBe(true);
        expect(fs.lstatSync(path.join(elsewhere, 'link-to-other')).isSymbolicLink()).toBe(true);
        expect(fs.readdirSync(elsewhere).filter((f) => f.endsWith('.tmp'))).toEqual([]);

        // A regular file is replaced with --force; the message counts the deleted bookings as such.
        const replaced = runCli(['backup', other, '--force'], env);
        expect(replaced.stderr).toBe('');
        expect(replaced.stdout).toMatch(/: \d+ bytes, 2 bookings \(1 deleted\), integrity check ok\.\n$/);
        expect(fs.statSync(other).size).toBeGreaterThan(100);
      } finally {
        reader.close();
      }
    },
  );

  it('asks for FILE when it is empty', { timeout: SLOW_MS }, () => {
    const dir = tempDir();
    for (const file of ['', '  ']) {
      const r = runCli(['backup', file], { DATABASE_URL: `sqlite:${path.join(dir, 'live.db')}` });
      expect(r.stderr).toBe('sector: FILE is required: npx sector backup FILE [--force]\n');
      expect(r.code).toBe(1);
    }
  });

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
