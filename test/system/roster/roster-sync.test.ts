// roster:sync against a stand-in of the network's API v2 (test/support/core-api-stand-in.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { member, startCoreApiStandIn, type CoreApiStandIn } from '../../support/core-api-stand-in.js';
import { runCliAsync, spawnCli } from '../../support/processes.js';

interface SyncJson {
  dry_run: boolean;
  roster: number;
  created: number[];
  updated: number[];
  gone: number[];
  unchanged: number;
  skipped: Array<{ id: number; reason: string }>;
}

describe('npx sector roster:sync', () => {
  let api: CoreApiStandIn;
  beforeAll(async () => {
    api = await startCoreApiStandIn();
  });
  afterAll(async () => api.close());

  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
    api.members.clear();
    api.clearFaults();
    api.requests.splice(0);
  });

  async function setUp(members: number) {
    ctx = await createTestContext({ env: { DIVISION: 'EUD' } });
    for (let id = 1; id <= members; id++) api.members.set(1_000_000 + id, member(1_000_000 + id));
    const env = {
      DATABASE_URL: ctx.databaseUrl,
      DIVISION: 'EUD',
      CORE_API_URL: api.url,
      CORE_API_KEY: api.key,
      CORE_API_TIMEOUT_MS: '1000',
    };
    return { ctx, env };
  }

  async function users(url: string) {
    const db = openDatabase(url);
    try {
      const rows = await db.kysely.selectFrom('users').selectAll().orderBy('id').execute();
      return rows;
    } finally {
      await db.close();
    }
  }

  async function auditRows(url: string) {
    const db = openDatabase(url);
    try {
      return await db.kysely.selectFrom('audit_log').select(['actor', 'action', 'target', 'before', 'after']).orderBy('id').execute();
    } finally {
      await db.close();
    }
  }

  /** The sync's own rows: those staged by any run, and runs holding the `roster-sync` lease now. */
  async function staging(url: string) {
    const db = openDatabase(url);
    try {
      const staged = await db.kysely
        .selectFrom('roster_staging')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const runs = await db.kysely
        .selectFrom('job_leases')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('name', '=', 'roster-sync')
        .where('lease_until', '>', Date.now())
        .executeTakeFirstOrThrow();
      return { staged: Number(staged.n), runs: Number(runs.n) };
    } finally {
      await db.close();
    }
  }

  async function until(what: string, ok: () => boolean) {
    for (let waited = 0; !ok(); waited += 20) {
      if (waited > 15_000) throw new Error(`gave up waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function sync(env: Record<string, string>, ...args: string[]) {
    const r = await runCliAsync(['roster:sync', '--json', ...args], env);
    return { ...r, json: r.code === 0 ? (JSON.parse(r.stdout) as SyncJson) : null };
  }

  it('reads a roster of 2,500 members in three pages and creates them, with audit entries; a second run changes nothing', async () => {
    const { env } = await setUp(2500);
    const first = await sync(env);
    expect(first.stderr).toBe('');
    expect(first.json).toMatchObject({ dry_run: false, roster: 2500, updated: [], gone: [], unchanged: 0 });
    expect(first.json!.created).toHaveLength(2500);
    expect(api.requests.filter((p) => p.startsWith('/v2/orgs/division/EUD'))).toEqual([
      '/v2/orgs/division/EUD?limit=1000&offset=0',
      '/v2/orgs/division/EUD?limit=1000&offset=1000',
      '/v2/orgs/division/EUD?limit=1000&offset=2000',
    ]);
    const stored = await users(env.DATABASE_URL);
    expect(stored).toHaveLength(2500);
    expect(stored[0]).toMatchObject({
      id: 1_000_001,
      first_name: 'First1000001',
      email: '1000001@example.org',
      rating: 3,
      division: 'EUD',
      subdivision: 'SCA',
      region: 'EMEA',
    });
    const audit = await auditRows(env.DATABASE_URL);
    expect(audit).toHaveLength(2500);
    expect(audit[0]).toMatchObject({ actor: 'roster', action: 'user.create', target: 'user:1000001', before: null });

    const second = await sync(env);
    expect(second.json).toMatchObject({ created: [], updated: [], gone: [], unchanged: 2500 });
    expect(await auditRows(env.DATABASE_URL)).toHaveLength(2500);
  });

  it('follows rating changes both ways, and a member who moved division is looked up and leaves; --dry-run changes nothing', async () => {
    const { env } = await setUp(10);
    expect((await sync(env)).code).toBe(0);
    api.members.get(1_000_001)!.rating = 5; // S2 -> C1
    api.members.get(1_000_002)!.rating = 1; // S2 -> OBS (demoted)
    api.members.get(1_000_003)!.division_id = 'EUC'; // moved
    api.members.get(1_000_003)!.subdivision_id = null;
    api.members.delete(1_000_004); // unknown to the network now
    api.requests.splice(0);

    const dry = await sync(env, '--dry-run');
    expect(dry.json).toEqual({
      dry_run: true,
      roster: 8,
      created: [],
      updated: [1_000_001, 1_000_002, 1_000_003, 1_000_004],
      gone: [1_000_003, 1_000_004],
      unchanged: 6,
      skipped: [],
    });
    expect(api.requests).toContain('/v2/members/1000003');
    expect(api.requests).toContain('/v2/members/1000004');
    expect((await users(env.DATABASE_URL)).find((u) => u.id === 1_000_001)!.rating).toBe(3);

    const real = await sync(env);
    expect(real.json).toMatchObject({
      dry_run: false,
      updated: [1_000_001, 1_000_002, 1_000_003, 1_000_004],
      gone: [1_000_003, 1_000_004],
    });
    const byId = new Map((await users(env.DATABASE_URL)).map((u) => [u.id, u]));
    expect(byId.get(1_000_001)!.rating).toBe(5);
    expect(byId.get(1_000_002)!.rating).toBe(1);
    expect(byId.get(1_000_003)).toMatchObject({ division: 'EUC', subdivision: null, first_name: 'First1000003' });
    expect(byId.get(1_000_004)).toMatchObject({ division: null, subdivision: null });
    const audit = (await auditRows(env.DATABASE_URL)).filter((a) => a.action === 'user.update');
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as unknown;
    expect(audit.map((a) => [a.target, parse(a.before), parse(a.after)])).toEqual([
      ['user:1000001', { rating: 3 }, { rating: 5 }],
      ['user:1000002', { rating: 3 }, { rating: 1 }],
      ['user:1000003', { division: 'EUD', subdivision: 'SCA' }, { division: 'EUC', subdivision: null }],
      ['user:1000004', { division: 'EUD', subdivision: 'SCA' }, { division: null, subdivision: null }],
    ]);
    // Users who left are not in the division's list any more.
    const key = await ctx!.key('read');
    const list = await ctx!.request({ method: 'GET', url: '/api/users?include=allUsers', token: key });
    expect((list.json() as Array<{ id: number }>).map((u) => u.id)).toEqual([
      1_000_001, 1_000_002, 1_000_005, 1_000_006, 1_000_007, 1_000_008, 1_000_009, 1_000_010,
    ]);
  });

  it('a roster carrying C2 and I2 is applied; a member with a rating outside the list is skipped and named, the rest applied', async () => {
    const { env } = await setUp(4);
    api.members.get(1_000_001)!.rating = 6; // C2
    api.members.get(1_000_002)!.rating = 9; // I2
    api.members.get(1_000_003)!.rating = 13;
    const first = await sync(env);
    expect(first.stderr).toBe('');
    expect(first.json).toMatchObject({
      roster: 3,
      created: [1_000_001, 1_000_002, 1_000_004],
      skipped: [{ id: 1_000_003, reason: 'rating 13 is not a known rating' }],
    });
    expect((await users(env.DATABASE_URL)).map((u) => [u.id, u.rating])).toEqual([
      [1_000_001, 6],
      [1_000_002, 9],
      [1_000_004, 3],
    ]);

    // A stored member whose rating leaves the list is left as stored (skipped in the roster and in
    // its look-up, named once); the others are still applied. The text output names them too.
    api.members.get(1_000_004)!.rating = 42;
    api.members.get(1_000_001)!.rating = 7;
    const text = await runCliAsync(['roster:sync'], env);
    expect(text.stderr).toBe('');
    expect(api.requests).toContain('/v2/members/1000004');
    expect(text.stdout).toContain('1 updated: 1000001\n');
    expect(text.stdout).toContain('2 skipped: 1000003 (rating 13 is not a known rating), 1000004 (rating 42 is not a known rating)\n');
    expect((await users(env.DATABASE_URL)).map((u) => [u.id, u.rating, u.division])).toEqual([
      [1_000_001, 7, 'EUD'],
      [1_000_002, 9, 'EUD'],
      [1_000_004, 3, 'EUD'],
    ]);
  });

  it('stores a name holding a NUL, a line break or another control character on one line without them, as sign-in does', async () => {
    const { env } = await setUp(3);
    api.members.get(1_000_001)!.name_first = 'Anna\r\nMaria';
    api.members.get(1_000_002)!.name_last = 'Lind\u0000\u0007';
    api.members.get(1_000_003)!.name_first = 'Bo\tErik';
    const first = await sync(env);
    expect(first.stderr).toBe('');
    expect(first.json).toMatchObject({ created: [1_000_001, 1_000_002, 1_000_003], skipped: [] });
    expect((await users(env.DATABASE_URL)).map((u) => [u.id, u.first_name, u.last_name])).toEqual([
      [1_000_001, 'Anna Maria', 'Last1000001'],
      [1_000_002, 'First1000002', 'Lind'],
      [1_000_003, 'Bo Erik', 'Last1000003'],
    ]);
  });

  it('roster audit entries record that an e-mail address was set, changed or cleared, never the address', async () => {
    const { env } = await setUp(3);
    expect((await sync(env)).code).toBe(0);
    api.members.get(1_000_001)!.email = 'new-address@example.org';
    api.members.get(1_000_002)!.email = '';
    expect((await sync(env)).json).toMatchObject({ updated: [1_000_001, 1_000_002] });
    expect((await users(env.DATABASE_URL)).map((u) => u.email)).toEqual(['new-address@example.org', null, '1000003@example.org']);

    const audit = await auditRows(env.DATABASE_URL);
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | null;
    expect(audit.filter((a) => a.action === 'user.create').map((a) => parse(a.after)!.email)).toEqual([
      '(not recorded)',
      '(not recorded)',
      '(not recorded)',
    ]);
    expect(audit.filter((a) => a.action === 'user.update').map((a) => [a.target, parse(a.before), parse(a.after)])).toEqual([
      ['user:1000001', { email: '(not recorded)' }, { email: '(not recorded)' }],
      ['user:1000002', { email: '(not recorded)' }, { email: null }],
    ]);
    expect(JSON.stringify(audit)).not.toContain('@example.org');
  });

  it('applies nothing when a page in the middle is broken', async () => {
    const { env } = await setUp(2500);
    api.fail('offset=1000', 'garbage');
    const r = await sync(env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sector: the network's API responded with something that is not JSON \(v2\/orgs\/division\/EUD\?offset=1000\); nothing changed\n$/,
    );
    expect(await users(env.DATABASE_URL)).toEqual([]);
    expect(await auditRows(env.DATABASE_URL)).toEqual([]);
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
  });

  it('refuses a roster that would take away more than half of the members, unless --force', async () => {
    const { env } = await setUp(10);
    expect((await sync(env)).code).toBe(0);
    for (let id = 1_000_001; id <= 1_000_006; id++) api.members.delete(id);
    const refused = await sync(env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'sector: the roster would take away 6 of 10 members (more than half): refused, nothing changed (npx sector roster:sync --force applies it)\n',
    );
    expect((await users(env.DATABASE_URL)).filter((u) => u.division === 'EUD')).toHaveLength(10);
    const forced = await sync(env, '--force');
    expect(forced.json).toMatchObject({ gone: [1_000_001, 1_000_002, 1_000_003, 1_000_004, 1_000_005, 1_000_006] });
    expect((await users(env.DATABASE_URL)).filter((u) => u.division === 'EUD')).toHaveLength(4);
  });

  it.each([
    ['null', null],
    ['another subdivision', 'NOR'],
    ['the subdivision in lower case', 'sca'],
  ] as const)('a roster that moves every member out of the subdivision (%s) is refused without --force', async (_name, subdivision) => {
    const { env } = await setUp(10);
    const sca = { ...env, SUBDIVISIONS: 'SCA' };
    expect((await sync(sca)).json).toMatchObject({ roster: 10 });
    const before = await users(env.DATABASE_URL);
    const auditBefore = await auditRows(env.DATABASE_URL);
    // Every member is still listed, but in no subdivision of SUBDIVISIONS.
    api.fail('/v2/orgs/subdivision/SCA', {
      edit: (body) => ({ ...body, items: body.items.map((m: object) => ({ ...m, subdivision_id: subdivision })) }),
    });
    const refused = await sync(sca);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'sector: the roster would take away 10 of 10 members (more than half): refused, nothing changed (npx sector roster:sync --force applies it)\n',
    );
    expect(await users(env.DATABASE_URL)).toEqual(before);
    expect(await auditRows(env.DATABASE_URL)).toEqual(auditBefore);
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });

    const forced = await sync(sca, '--force');
    expect(forced.json).toMatchObject({ roster: 10, updated: before.map((u) => u.id) });
    expect((await users(env.DATABASE_URL)).map((u) => u.subdivision)).toEqual(before.map(() => subdivision));
  });

  it.each([
    [
      'claims 4,999,999 members and sends one a page',
      1,
      (body: any) => ({ count: 4_999_999, items: body.items.slice(0, 1) }),
      /^sector: the network's roster \(v2\/orgs\/division\/EUD\?offset=0\) sent 1 of the 1000 members a page holds before the 4999999 it counts were read: refused, nothing changed\n$/,
    ],
    [
      'sends its first page again for every offset',
      2,
      (body: any) => ({ ...body, items: [...Array(1000).keys()].map((i) => member(1_000_001 + i)) }),
      /^sector: the network's roster \(v2\/orgs\/division\/EUD\?offset=1000\) repeats members it sent before: refused, nothing changed\n$/,
    ],
    [
      'counts more members with every page',
      2,
      (body: any, url: URL) => ({ ...body, count: 2000 + Number(url.searchParams.get('offset')) }),
      /^sector: the network's roster \(v2\/orgs\/division\/EUD\?offset=2000\) counts 3000 members after the 2 pages of 1000 its first count needed: refused, nothing changed\n$/,
    ],
  ] as const)(
    'a roster that pages on without end (%s) is refused after %i request(s), nothing changed',
    async (_name, requests, edit, message) => {
      const { env } = await setUp(2500);
      expect((await sync(env)).code).toBe(0);
      api.members.get(1_000_001)!.rating = 7;
      const before = await users(env.DATABASE_URL);
      const auditBefore = await auditRows(env.DATABASE_URL);
      api.requests.splice(0);
      api.fail('/v2/orgs/division/EUD', { edit });
      const r = await sync(env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(api.requests).toHaveLength(requests);
      expect(await users(env.DATABASE_URL)).toEqual(before);
      expect(await auditRows(env.DATABASE_URL)).toEqual(auditBefore);
      expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
    },
  );

  it.each([
    ['401 (a wrong key)', 'orgs', { status: 401 }, /HTTP 401/],
    ['429', 'orgs', { status: 429 }, /HTTP 429/],
    ['500', 'orgs', { status: 500 }, /HTTP 500/],
    ['a timeout', 'orgs', 'timeout', /no response within 1000 ms/],
    ['garbage', 'orgs', 'garbage', /not JSON/],
    ['another shape', 'orgs', 'shape', /unexpected shape \(v2\/orgs\/division\/EUD\?offset=0 has no items array\)/],
    ['a failing member look-up', 'members/1000001', { status: 500 }, /v2\/members\/1000001\): HTTP 500/],
  ] as const)('exits 1 with one line and changes nothing on %s', async (_name, match, fault, message) => {
    const { env } = await setUp(3);
    expect((await sync(env)).code).toBe(0);
    api.members.get(1_000_002)!.rating = 7;
    api.members.delete(1_000_001);
    const before = await users(env.DATABASE_URL);
    const auditBefore = await auditRows(env.DATABASE_URL);
    api.fail(match, fault);
    const r = await sync(env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await users(env.DATABASE_URL)).toEqual(before);
    expect(await auditRows(env.DATABASE_URL)).toEqual(auditBefore);
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
  });

  it('a failure after some pages were staged leaves users, audit and staging as they were', async () => {
    const { env } = await setUp(3000);
    expect((await sync(env)).code).toBe(0);
    // Changes in the pages read before the failure, and a new member.
    api.members.get(1_000_001)!.rating = 7;
    api.members.get(1_001_500)!.rating = 7;
    api.members.set(1_003_001, member(1_003_001));
    const before = await users(env.DATABASE_URL);
    const auditBefore = await auditRows(env.DATABASE_URL);
    api.fail('offset=2000', { status: 503 });
    const r = await sync(env);
    expect(r.stderr).toMatch(/^sector: the network's API failed \(v2\/orgs\/division\/EUD\?offset=2000\): HTTP 503; nothing changed\n$/);
    expect(api.requests.filter((p) => p.startsWith('/v2/orgs/'))).toHaveLength(3 + 3);
    expect(await users(env.DATABASE_URL)).toEqual(before);
    expect(await auditRows(env.DATABASE_URL)).toEqual(auditBefore);
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
  });

  it('runs one sync at a time: a second one started meanwhile refuses with one line, the first completes', async () => {
    const { env } = await setUp(2500);
    const slow = { ...env, CORE_API_TIMEOUT_MS: '10000' };
    api.fail('offset=1000', { delayMs: 2000 });
    const first = sync(slow);
    await until('the first run to read its second page', () => api.requests.some((p) => p.includes('offset=1000')));
    const second = await sync(slow);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(
      /^sector: another roster sync is running \(started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, held until [^)]+\): refused, nothing changed; try again once it has finished\n$/,
    );
    // The second read nothing: only the first's pages were asked for.
    expect(api.requests.filter((p) => p.includes('offset=0'))).toHaveLength(1);
    const done = await first;
    expect(done.stderr).toBe('');
    expect(done.json).toMatchObject({ roster: 2500, updated: [], gone: [], unchanged: 0 });
    expect(done.json!.created).toHaveLength(2500);
    expect(await auditRows(env.DATABASE_URL)).toHaveLength(2500);
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
    // The turn is free again once the first has finished.
    api.clearFaults();
    expect((await sync(env)).json).toMatchObject({ created: [], updated: [], unchanged: 2500 });
  });

  it("a crashed run's staged rows hold the turn until it lapses, then go, without touching the next run", async () => {
    const { env } = await setUp(2500);
    api.fail('offset=1000', 'timeout');
    const crashed = spawnCli(['roster:sync', '--json'], { ...env, CORE_API_TIMEOUT_MS: '30000' });
    await until('the run to read its second page', () => api.requests.some((p) => p.includes('offset=1000')));
    crashed.kill('SIGKILL');
    await crashed.done;
    api.clearFaults();
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 1000, runs: 1 });

    const refused = await sync(env);
    expect(refused.stderr).toMatch(/^sector: another roster sync is running \(started [^)]+\): refused, nothing changed/);
    expect(await users(env.DATABASE_URL)).toEqual([]);

    // The crashed run's turn lapses after CORE_API_TIMEOUT_MS × 2 + 60 s without progress: stand
    // for that time having passed.
    const db = openDatabase(env.DATABASE_URL);
    await db.kysely.updateTable('job_leases').set({ lease_until: 0 }).where('name', '=', 'roster-sync').execute();
    await db.close();
    // Meanwhile one member the crashed run staged left the network and another's rating changed.
    api.members.delete(1_000_002);
    api.members.get(1_000_001)!.rating = 5;

    const next = await sync(env);
    expect(next.stderr).toBe('');
    expect(next.json).toMatchObject({ roster: 2499, updated: [], gone: [], unchanged: 0 });
    expect(next.json!.created).toHaveLength(2499);
    expect(next.json!.created).not.toContain(1_000_002);
    const stored = await users(env.DATABASE_URL);
    expect(stored).toHaveLength(2499);
    expect(stored[0]).toMatchObject({ id: 1_000_001, rating: 5 });
    expect(await staging(env.DATABASE_URL)).toEqual({ staged: 0, runs: 0 });
  });

  it('reads every subdivision of SUBDIVISIONS, and says so when no key is configured', async () => {
    const { env } = await setUp(3);
    api.members.set(2_000_001, member(2_000_001, 'EUD', 'NOR'));
    const r = await sync({ ...env, SUBDIVISIONS: 'SCA,NOR' });
    expect(r.json).toMatchObject({ roster: 4 });
    expect(api.requests.filter((p) => p.startsWith('/v2/orgs/'))).toEqual([
      '/v2/orgs/subdivision/SCA?limit=1000&offset=0',
      '/v2/orgs/subdivision/NOR?limit=1000&offset=0',
    ]);
    const nokey = await runCliAsync(['roster:sync'], { DATABASE_URL: env.DATABASE_URL, DIVISION: 'EUD' });
    expect(nokey.code).toBe(1);
    expect(nokey.stderr).toBe('sector: CORE_API_KEY is not set: the roster cannot be read from the network\n');
  });
});
