import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../../../src/features/api-keys/tokens.js';
import { createTestContext, writeImportFile, type TestContext } from '../../support/context.js';
import { ALL_TABLES, readDatabase, tableRows } from '../../support/db-state.js';
import { ADA, BO, buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { runCli, startServer } from '../../support/processes.js';
import { createKey } from '../../support/seed.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DATA = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg' })],
  positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_GND')],
});

interface Line {
  at: string;
  actor: string;
  actor_name: string | null;
  action: string;
  target: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// Each test runs several CLI processes and servers: on a loaded machine that takes a while.
const SLOW_MS = 180_000;

describe('audit log', () => {
  let ctx: TestContext;
  let env: Record<string, string>;
  const audit = (...args: string[]) => {
    const r = runCli(['audit', '--json', ...args], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    env = { DATABASE_URL: ctx.databaseUrl };
    await ctx.load(DATA);
  }, SLOW_MS);
  afterAll(() => ctx.close());

  it('records booking create, update and delete with the key and the changed fields only, newest first', { timeout: SLOW_MS }, async () => {
    const token = await createKey(env, 'roster bot', 'edit');
    const key = { id: parseToken(token)!.id, token };

    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: key.token,
      payload: { cid: ADA, date: '01/03/2026', start_at: '10:00', end_at: '12:00', position: 'EKCH_DEL' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().booking.id as number;
    expect(
      (await ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: key.token, payload: { end_at: '13:00' } })).statusCode,
    ).toBe(200);
    // A refused write (an overlap) leaves nothing in the log: the entry shares its transaction.
    const refused = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: key.token,
      payload: { cid: BO, date: '01/03/2026', start_at: '11:00', end_at: '12:00', position: 'EKCH_DEL' },
    });
    expect(refused.statusCode).toBe(409);
    expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: key.token })).statusCode).toBe(200);

    const lines = audit('--booking', String(id));
    expect(lines.map((l) => l.action)).toEqual(['booking.deleted', 'booking.updated', 'booking.created']);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['at', 'actor', 'actor_name', 'action', 'target', 'before', 'after']);
      expect(l).toMatchObject({
        at: '2026-01-15T12:00:00.000000Z',
        actor: `key:${key.id}`,
        actor_name: 'roster bot',
        target: `booking:${id}`,
      });
    }
    const [deleted, updated, create] = lines as [Line, Line, Line];
    expect(create.before).toBeNull();
    expect(create.after).toEqual({
      user_id: ADA,
      callsign: 'EKCH_DEL',
      time_start: '2026-03-01 10:00:00',
      time_end: '2026-03-01 12:00:00',
      training: 0,
      training_forced: 0,
      exam: 0,
      event: 0,
      source: 'CC',
      network_booking: null,
      deleted: 0,
    });
    expect(updated.before).toEqual({ time_end: '2026-03-01 12:00:00' });
    expect(updated.after).toEqual({ time_end: '2026-03-01 13:00:00' });
    expect(deleted.before).toMatchObject({ deleted: 0, time_end: '2026-03-01 13:00:00', callsign: 'EKCH_DEL' });
    expect(deleted.after).toEqual({ deleted: 1 });

    // The human form: aligned columns with the key's name, as wide as the terminal (COLUMNS when piped).
    const table = runCli(['audit', '--booking', String(id)], { ...env, COLUMNS: '200' });
    expect(table.code).toBe(0);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^TIME\s+ACTOR\s+ACTION\s+TARGET\s+CHANGES$/);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(`key:${key.id} (roster bot)`);
    expect(rows[2]).toContain('time_end: "2026-03-01 12:00:00" -> "2026-03-01 13:00:00"');
    const actionColumn = rows.map((r) => (r.indexOf('booking.') >= 0 ? r.indexOf('booking.') : r.indexOf('ACTION')));
    expect(new Set(actionColumn).size).toBe(1);
    expect(rows.every((r) => r.length <= 200)).toBe(true);

    // Piped without COLUMNS, and on an 80-column terminal: every line fits; the created booking's
    // many fields end in an ellipsis, and --json (above) keeps them all.
    for (const [columns, width] of [
      ['', 120],
      ['80', 80],
    ] as const) {
      const narrow = runCli(['audit', '--booking', String(id)], { ...env, COLUMNS: columns });
      const lines = narrow.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(4);
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
      expect(lines[3]).toMatch(/booking\.created .*…$/);
      expect(lines[1]).toContain('booking.deleted');
    }
  });

  it('records key administration and imports with the command line as actor', { timeout: SLOW_MS }, async () => {
    const created = runCli(['create:apikey', '--name', 'to revoke', '--read-only', '--json'], env);
    const key = JSON.parse(created.stdout) as { id: string };
    expect(runCli(['apikey:revoke', 'to revoke'], env).code).toBe(0);
    const roster = buildBooking({
      id: 500,
      user_id: BO,
      callsign: 'EKCH_GND',
      time_start: '2026-04-01 10:00:00',
      time_end: '2026-04-01 11:00:00',
    });
    expect(runCli(['import', writeImportFile({ bookings: [roster] }, 'roster.json')], env).code).toBe(0);

    const lines = audit();
    const keyLines = lines.filter((l) => l.target === `apikey:${key.id}`);
    expect(keyLines.map((l) => [l.action, l.actor, l.actor_name])).toEqual([
      ['apikey.revoked', 'cli', null],
      ['apikey.created', 'cli', null],
    ]);
    expect(keyLines[1]!.after).toMatchObject({ name: 'to revoke', scope: 'read' });
    expect(keyLines[0]!.before).toEqual({ revoked_at: null });
    const imported = lines.find((l) => l.action === 'import' && l.target === 'roster.json')!;
    expect(imported).toMatchObject({ actor: 'cli', before: null, after: { bookings: 1, users: 0 } });
    expect(audit('--booking', '500')).toMatchObject([
      { action: 'booking.created', actor: 'cli', after: { callsign: 'EKCH_GND', user_id: BO } },
    ]);
    // A failed import records nothing.
    const unknownUser = buildBooking({
      id: 501,
      user_id: 42,
      callsign: 'EKCH_GND',
      time_start: '2026-04-02 10:00:00',
      time_end: '2026-04-02 11:00:00',
    });
    const before = await tableRows(ctx.databaseUrl, ALL_TABLES);
    expect(before.audit_log).toHaveLength(lines.length);
    expect(runCli(['import', writeImportFile({ bookings: [unknownUser] }, 'roster.json')], env).code).toBe(1);
    expect(await tableRows(ctx.databaseUrl, ALL_TABLES)).toEqual(before);
  });

  it('records webhook administration with the command line as actor, never the secret', { timeout: SLOW_MS }, async () => {
    const added = runCli(['webhook:add', '--url', 'https://hooks.example.org/sector', '--events', 'booking.created', '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const hook = JSON.parse(added.stdout) as { id: string; secret: string };
    expect(runCli(['webhook:remove', hook.id], env).code).toBe(0);
    const lines = audit().filter((l) => l.target === `webhook:${hook.id}`);
    expect(lines.map((l) => [l.action, l.actor])).toEqual([
      ['webhook.removed', 'cli'],
      ['webhook.added', 'cli'],
    ]);
    expect(lines[1]!.after).toEqual({ url: 'https://hooks.example.org/sector', events: ['booking.created'] });
    expect(lines[0]!.before).toMatchObject({ url: 'https://hooks.example.org/sector', removed_at: null });
    expect(JSON.stringify(lines)).not.toContain(hook.secret);
    // Removing it again is refused and records nothing more (nor changes anything else).
    const before = await tableRows(ctx.databaseUrl, ALL_TABLES);
    expect(before.audit_log.filter((row) => (JSON.parse(row) as { target: string }).target === `webhook:${hook.id}`)).toHaveLength(2);
    expect(runCli(['webhook:remove', hook.id], env).code).not.toBe(0);
    expect(await tableRows(ctx.databaseUrl, ALL_TABLES)).toEqual(before);
  });

  it('filters by --since, --actor and --limit, and refuses bad filters with one line', { timeout: SLOW_MS }, () => {
    const all = audit();
    expect(audit('--since', '2026-01-15T12:00:00Z').length).toBeGreaterThan(0);
    const byCli = all.filter((l) => l.actor === 'cli');
    expect(byCli.length).toBeGreaterThan(0);
    expect(byCli.length).toBeLessThan(all.length);
    expect(audit('--actor', 'cli')).toEqual(byCli);
    expect(audit('--since', '2026-01-15T12:00:01Z')).toEqual(all.filter((l) => l.at > '2026-01-15T12:00:01'));
    expect(audit('--limit', '2')).toEqual(all.slice(0, 2));
    for (const args of [
      ['--since', 'yesterday'],
      ['--since', '2026-02-30T00:00:00Z'],
      ['--booking', 'abc'],
      ['--booking', '0'],
      ['--limit', '-1'],
      ['--actor', 'somebody'],
    ]) {
      const r = runCli(['audit', ...args], env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  it('the server prunes entries older than the retention, keeping newer ones; unset keeps everything', { timeout: SLOW_MS }, async () => {
    const old = Date.now() - 40 * 86_400_000;
    const ctx = await createTestContext({ now: old });
    try {
      await ctx.load(DATA);
      ctx.setNow(Date.now());
      await ctx.key('read', { name: 'recent' });
      const env = { DATABASE_URL: ctx.databaseUrl };
      // The entries' actions, newest first (as `audit` lists them), read in this process.
      const actions = async () =>
        (
          await readDatabase(env.DATABASE_URL, (db) =>
            db.selectFrom('audit_log').select('action').orderBy('at', 'desc').orderBy('id', 'desc').execute(),
          )
        ).map((r) => r.action);
      expect(await actions()).toEqual(['apikey.created', 'import']);

      // Without the variable nothing is pruned.
      const keep = await startServer(env);
      await keep.stop();
      expect(await actions()).toEqual(['apikey.created', 'import']);

      const server = await startServer({ ...env, AUDIT_RETENTION_DAYS: '30' });
      try {
        // The log line follows the commit: wait for both.
        for (let i = 0; i < 50 && ((await actions()).length > 1 || !server.logs().includes('pruned old audit entries')); i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(await actions()).toEqual(['apikey.created']);
        expect(server.logs()).toContain('pruned old audit entries');
      } finally {
        await server.stop();
      }
      const bad = await startServer({ ...env, AUDIT_RETENTION_DAYS: 'forever' }).catch((err: unknown) => (err as Error).message);
      expect(bad).toContain('AUDIT_RETENTION_DAYS must be an integer');
    } finally {
      await ctx.close();
    }
  });
});
