// `npm run release:dumps -- [COMMIT]`: writes test/fixtures/releases/<version>/, the databases an
// earlier Sector leaves behind, for test/system/core/upgrade.test.ts: SQL text dumps of a SQLite and a
// PostgreSQL database made by that version's own CLI and server, and release.json with the key's
// token and the webhook it made. Without COMMIT, this checkout (built first; its src/ committed).
// Needs TEST_DATABASE_URL (a schema is made in it and dropped), `sqlite3` and `pg_dump`.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from './processes.js';
import { DUMP_SCHEMA, RELEASES_DIR, type Release, type ReleaseDatabase } from './releases.js';

// Connection refused at once, so a server delivering to it logs failures and never waits.
const WEBHOOK_URL = 'http://127.0.0.1:9/sector-release-check';

const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string =>
  execFileSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 28,
  });

/** A checkout of `commit` built in `dir`, with this checkout's packages when its lock file is the same. */
function buildCheckout(commit: string, dir: string): void {
  run('git', ['worktree', 'add', '--detach', dir, commit], ROOT);
  const lock = (root: string) => fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  if (lock(dir) === lock(ROOT)) {
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  } else {
    run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
    // Compiling SQLite takes minutes: the same better-sqlite3 takes this checkout's binary.
    const native = (root: string) =>
      JSON.parse(fs.readFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')).version as string;
    if (native(dir) === native(ROOT)) {
      fs.cpSync(path.join(ROOT, 'node_modules/better-sqlite3/build'), path.join(dir, 'node_modules/better-sqlite3/build'), {
        recursive: true,
      });
    } else {
      run('npm', ['rebuild', 'better-sqlite3'], dir);
    }
  }
  run('npm', ['run', 'build'], dir);
}

function cli(root: string, databaseUrl: string, args: string[]): string {
  return run(process.execPath, [path.join(root, 'dist/cli/index.js'), ...args], root, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
}

/** That version's server on a free port, until `fn` is done; stopped with SIGTERM, as an operator does. */
async function withServer<T>(root: string, databaseUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT: '0',
    DATA_FEED_URL: 'off',
  };
  const child = spawn(process.execPath, [path.join(root, 'dist/server.js')], { cwd: root, env });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let logs = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      logs += chunk.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(logs);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`the server exited:\n${logs}`)));
  });
  try {
    return await fn(url);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** A booking made, changed and another made and deleted through that version's API; the first's id. */
async function bookThroughApi(server: string, token: string): Promise<number> {
  const call = async (method: string, url: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text === '' ? null : JSON.parse(text);
  };
  const users = (await call('GET', '/api/users?include[]=allUsers')) as Array<{ id: number }>;
  const positions = (await call('GET', '/api/positions')).data as Array<{ callsign: string }>;
  // A day far beyond the demo's bookings, so that nothing overlaps.
  const day = new Date(Date.now() + 200 * 86_400_000);
  const date = `${day.getUTCDate()}/${day.getUTCMonth() + 1}/${day.getUTCFullYear()}`;
  const book = async (start: string, end: string) =>
    (
      await call('POST', '/api/bookings/create', {
        cid: users[0]!.id,
        date,
        start_at: start,
        end_at: end,
        position: positions[0]!.callsign,
      })
    ).booking.id as number;
  const kept = await book('10:00', '12:00');
  await call('PATCH', `/api/bookings/${kept}`, { end_at: '13:00' });
  await call('DELETE', `/api/bookings/${await book('14:00', '15:00')}`);
  return kept;
}

/** A division made by that version's own commands, in the database at `databaseUrl`. */
async function fill(root: string, version: string, databaseUrl: string): Promise<ReleaseDatabase> {
  const commands = cli(root, databaseUrl, ['--help']);
  cli(root, databaseUrl, ['seed:demo', '--seed', '1']);
  const key = JSON.parse(
    cli(root, databaseUrl, ['create:apikey', '--name', `release ${version}`, '--edit', '--json']),
  ) as ReleaseDatabase['key'];
  const webhook = commands.includes('webhook:add')
    ? (JSON.parse(cli(root, databaseUrl, ['webhook:add', '--url', WEBHOOK_URL, '--json'])) as ReleaseDatabase['webhook'])
    : null;
  const booking = await withServer(root, databaseUrl, (server) => bookThroughApi(server, key.token));
  return {
    key: { id: key.id, name: key.name, token: key.token },
    webhook: webhook && { id: webhook.id, url: webhook.url, secret: webhook.secret },
    booking,
  };
}

/** pg_dump's text as plain SQL any client can run: without psql's \restrict guard lines, under DUMP_SCHEMA. */
function postgresDump(base: string, schema: string): string {
  const text = run('pg_dump', ['--schema', schema, '--no-owner', '--no-privileges', '--inserts', '--rows-per-insert=100', base], ROOT);
  return text
    .split('\n')
    .filter((line) => !/^\\(un)?restrict /.test(line))
    .join('\n')
    .replaceAll(schema, DUMP_SCHEMA);
}

async function main(): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: the PostgreSQL dump needs a database to make its schema in');
  const commitArg = process.argv[2];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-release-'));
  const checkout = commitArg ? path.join(tmp, 'checkout') : ROOT;
  const schema = `sector_release_${randomBytes(4).toString('hex')}`;
  try {
    if (commitArg) {
      buildCheckout(commitArg, checkout);
    } else {
      // release.json names the commit of the code (the version's bump may still be uncommitted).
      if (run('git', ['status', '--porcelain', '--', 'src'], ROOT) !== '')
        throw new Error('src/ has uncommitted changes: commit them first');
      run('npm', ['run', 'build'], ROOT);
    }
    // This checkout's code is the last commit that changed src/: a hash that rebasing other files keeps.
    const commit = run('git', ['log', '-1', '--format=%H', ...(commitArg ? [] : ['--', 'src'])], checkout).trim();
    const version = (JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { version: string }).version;
    const out = path.join(RELEASES_DIR, version);
    fs.mkdirSync(out, { recursive: true });

    const sqliteFile = path.join(tmp, 'sector.db');
    const sqlite = await fill(checkout, version, `sqlite:${sqliteFile}`);
    fs.writeFileSync(path.join(out, 'sqlite.sql'), run('sqlite3', [sqliteFile, '.dump'], tmp));

    const postgres = await fill(checkout, version, `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`);
    fs.writeFileSync(path.join(out, 'postgres.sql'), postgresDump(base, schema));

    const release: Release = { version, commit, sqlite, postgres };
    fs.writeFileSync(path.join(out, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
    process.stderr.write(`Wrote ${path.relative(ROOT, out)}/ (sqlite.sql, postgres.sql, release.json) from ${commit.slice(0, 7)}.\n`);
  } finally {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    if (commitArg && fs.existsSync(checkout)) run('git', ['worktree', 'remove', '--force', checkout], ROOT);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
