// role:grant, role:revoke and role:list as an operator runs them (contract §17): the first
// Administrator comes from the command line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, writeImportFile } from '../../support/context.js';
import { readDatabase, tableRows } from '../../support/db-state.js';
import { ADA, BO, buildDivision, buildUser } from '../../support/factories.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';

const oneLine = (text: string) => text.trim().split('\n').length === 1 && text.startsWith('sector: ');

describe('role commands', { timeout: 120_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  const roleRows = () => tableRows(env.DATABASE_URL, ['roles', 'audit_log', 'events']);

  beforeAll(() => {
    const file = writeImportFile(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [buildUser(), buildUser({ id: BO, first_name: 'Bo' })],
        roles: [{ user_id: BO, area: 'Sweden', role: 'Mentor' }],
      }),
    );
    expect(runCli(['import', file], env).code).toBe(0);
  });

  it('makes the first Administrator division-wide, and lists roles as a table or one JSON array', () => {
    const granted = runCli(['role:grant', String(ADA), 'Administrator'], env);
    expect(granted.code).toBe(0);
    expect(granted.stderr).toContain(`Granted Administrator division-wide to ${ADA}.`);
    expect(runCli(['role:grant', String(ADA), 'Moderator', '--area', 'denmark'], env).code).toBe(0);

    const json = runCli(['role:list', '--json'], env);
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual([
      { user_id: ADA, role: 'Administrator', area: null },
      { user_id: ADA, role: 'Moderator', area: 'Denmark' },
      { user_id: BO, role: 'Mentor', area: 'Sweden' },
    ]);
    const table = runCli(['role:list'], env).stdout;
    expect(table).toMatch(/CID\s+ROLE\s+AREA/);
    expect(table).toMatch(new RegExp(`${ADA}\\s+Administrator\\s+\\(division-wide\\)`));
  });

  it('audits each change with actor cli and publishes role.granted and role.revoked', async () => {
    expect(runCli(['role:revoke', String(ADA), 'Moderator', '--area', 'Denmark'], env).code).toBe(0);
    const rows = await readDatabase(env.DATABASE_URL, async (db) => ({
      audit_log: await db.selectFrom('audit_log').selectAll().where('action', 'like', 'role.%').orderBy('id').execute(),
      events: await db.selectFrom('events').selectAll().orderBy('seq').execute(),
    }));
    const audit = rows.audit_log;
    expect(audit.map((e) => [e.actor, e.action, e.target])).toEqual([
      ['cli', 'role.granted', `user:${ADA}`],
      ['cli', 'role.granted', `user:${ADA}`],
      ['cli', 'role.revoked', `user:${ADA}`],
    ]);
    const events = rows.events.map((e) => [e.type, JSON.parse(e.body).data.role]);
    expect(events).toEqual([
      ['role.granted', { user_id: ADA, role: 'Administrator', area: null }],
      ['role.granted', { user_id: ADA, role: 'Moderator', area: 'Denmark' }],
      ['role.revoked', { user_id: ADA, role: 'Moderator', area: 'Denmark' }],
    ]);
  });

  it.each([
    [
      ['role:grant', '4242', 'Administrator'],
      /no user with CID 4242: a person is known to Sector once they have signed in, or come from `npx sector import` or `roster:sync`\. Nothing was changed\./,
    ],
    [['role:grant', String(BO), 'Mentor'], /Mentor is held in an area/],
    [['role:grant', String(BO), 'Chief', '--area', 'Denmark'], /must be one of: Administrator, Moderator, Mentor, Buddy/],
    [['role:grant', String(BO), 'Mentor', '--area', 'Atlantis'], /no area named "Atlantis"/],
    [['role:grant', String(BO), 'Mentor', '--area', 'Sweden'], /already holds Mentor in Sweden/],
    [['role:revoke', String(BO), 'Buddy', '--area', 'Sweden'], /does not hold Buddy in Sweden/],
    [['role:grant', 'x1', 'Mentor'], /not a CID/],
  ])('refuses %j in one line, exit 1, changing nothing', async (args, message) => {
    const before = await roleRows();
    const r = runCli(args, env);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toBe(true);
    expect(r.stderr).toMatch(message);
    expect(await roleRows()).toEqual(before);
  });

  describe('with the server running', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServer(env);
    });
    afterAll(() => server.stop());

    it('the users API shows area roles only: a division-wide Administrator alone is selected with every area null', async () => {
      const key = runCli(['create:apikey', '--name', 'roles-test', '--read-only', '--json'], env);
      const token = JSON.parse(key.stdout).token as string;
      const res = await fetch(`${server.url}/api/users?include=roles`, { headers: { authorization: `Bearer ${token}` } });
      const users = (await res.json()) as Array<{ id: number; roles: Record<string, string[] | null> }>;
      expect(users.find((u) => u.id === ADA)?.roles).toEqual({ Denmark: null, Sweden: null });
      expect(users.find((u) => u.id === BO)?.roles).toEqual({ Denmark: null, Sweden: ['Mentor'] });
    });
  });
});
