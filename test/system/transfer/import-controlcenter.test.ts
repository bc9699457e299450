// `import:controlcenter` as a process against MariaDB holding Control Center's own schema (6.4.3
// and 7.0, test/fixtures/controlcenter), into SQLite and PostgreSQL (contract §19).
import http from 'node:http';
import net from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { startNetworkStandIn } from '../../support/network-stand-in.js';
import { eventually } from '../../support/network-sync.js';
import { SIGN_IN_ENV, signInOnDatabase } from '../../support/members.js';
import { runCliAsync, startServer } from '../../support/processes.js';
import { controlCenterDatabases, MARIADB } from '../../support/controlcenter-db.js';

const cc = controlCenterDatabases('import');
const controlCenterDatabase = (version: '6.4.3' | '7.0', extra = '') => cc.create(version, extra);
const PASSWORD = cc.password;
const USER = cc.user;

afterAll(() => cc.dropAll());

function move(url: string, databaseUrl: string, ...flags: string[]) {
  return runCliAsync(['import:controlcenter', url, ...flags], { DATABASE_URL: databaseUrl });
}

const BOT_TOKEN = '6f1c2a0e-3b4d-4c5e-8f90-1a2b3c4d5e6f';
/** Control Center's key with write access (read_only 0). */
const WEBSITE_TOKEN = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
/** A second key named "Discord bot": Sector's key names are unique. */
const SECOND_BOT_TOKEN = '7d3e4f50-6a7b-4c8d-9e0f-2b3c4d5e6f70';

interface Training {
  id: number;
  user_id: number;
  area: string;
  type: string;
  status: number;
  ratings: string[];
  mentors: number[];
  started_at: string | null;
  closed_at: string | null;
  closed_reason: string | null;
  paused: boolean;
  motivation: string | null;
  experience: number | null;
  english_only: boolean;
}

describe.each(['6.4.3', '7.0'] as const)('import:controlcenter from Control Center %s', (version) => {
  it('moves the division; the report lists the unclean rows; the old tokens keep working', async () => {
    const url = await controlCenterDatabase(version);
    const databaseUrl = freshDatabaseUrl();
    const r = await move(url, databaseUrl, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    const report = JSON.parse(r.stdout);
    expect(report.version).toBe(version === '7.0' ? '7.x' : '6.x');
    expect(report.report.users).toMatchObject({ read: 5, imported: 5, skipped: [] });
    expect(report.report.positions.skipped).toEqual([expect.objectContaining({ row: 'position 5 EKCH_GND' })]);
    expect(report.report.positions.changed).toEqual([expect.objectContaining({ row: 'position 4 ENGM_APP' })]);
    expect(report.report.bookings.changed).toEqual([expect.objectContaining({ row: 'booking 103 EKDK_CTR' })]);
    expect(report.report.roles.skipped).toHaveLength(version === '7.0' ? 1 : 0);
    expect(report.settings).toEqual({ ACTIVITY_HOURS: '10', ACTIVITY_PERIOD_MONTHS: '12', ACTIVITY_GRACE_MONTHS: '6' });
    expect(report.report.trainings).toMatchObject({ read: 5, imported: 4, skipped: [{ row: 'training 5', reason: 'unknown status 7' }] });
    expect(report.report.training_reports).toMatchObject({ read: 3, imported: 3, skipped: [] });
    expect(report.report.training_examinations).toMatchObject({
      read: 3,
      imported: 2,
      skipped: [{ row: 'examination 3', reason: 'no result' }],
    });
    expect(report.report.training_timeline).toMatchObject({ read: 6, imported: 6, skipped: [] });
    expect(report.report.atc_activity).toMatchObject({ read: 4, imported: 4, skipped: [] });
    expect(report.report.api_keys).toMatchObject({ read: 3, imported: 3, skipped: [] });
    expect(report.report.api_keys.changed).toEqual([
      {
        row: 'API key "Discord bot" created 2025-05-01',
        reason: 'name already used by another key: imported as "Discord bot (2025-05-01)"',
      },
    ]);
    expect(Object.keys(report.report)).toEqual(
      expect.arrayContaining(['areas', 'users', 'positions', 'endorsements', 'roles', 'trainings', 'bookings', 'atc_activity', 'api_keys']),
    );

    // The audit log has one entry for the move (none per moved booking: history, not news), with the counts of every kind.
    const audit = await runCliAsync(['audit', '--json'], { DATABASE_URL: databaseUrl });
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.map((e) => e.action)).toEqual(['import']);
    const moves = entries;
    for (const k of ['trainings', 'training_reports', 'training_examinations', 'training_timeline', 'atc_activity', 'api_keys', 'bookings'])
      expect(moves[0].after.controlcenter[k]).toEqual({
        read: report.report[k].read,
        imported: report.report[k].imported,
        skipped: report.report[k].skipped.length,
      });

    // ATC activity per area: Norway's grace began with Ada's completed training (6 months, the moved setting).
    const activity = await runCliAsync(['activity', '--cid', '10000001', '--json'], {
      DATABASE_URL: databaseUrl,
      ACTIVITY_HOURS: '10',
      ACTIVITY_GRACE_MONTHS: '6',
    });
    expect(activity.code).toBe(0);
    const norway = JSON.parse(activity.stdout).find((a: { area: string }) => a.area === 'Norway');
    expect(norway.grace_until).toMatch(/^2027-02-10T12:00:00/);

    // Di Holm (Administrator) signs in to the staff pages.
    const cookie = `sector_session=${await signInOnDatabase(databaseUrl, { id: 10000004, first_name: 'Di', last_name: 'Holm', rating: 'I1', division: 'EUD' })}`;
    const server = await startServer({ DATABASE_URL: databaseUrl, ...SIGN_IN_ENV });
    try {
      // Users keep when they last signed in to Control Center.
      const ada = await fetch(`${server.url}/staff/users/10000001`, { headers: { cookie } });
      expect(ada.status).toBe(200);
      expect(await ada.text()).toContain('<dt>Last signed in</dt><dd>2026-10-01 12:00 UTC</dd>');
      const get = (p: string, token = BOT_TOKEN) => fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
      const json = async (p: string): Promise<any> => (await get(p)).json();
      const booking = await get('/api/bookings/101');
      expect(booking.status).toBe(200);
      const body = await booking.json();
      expect(JSON.stringify(body)).toContain('"network_booking":"5551"');
      // The later-created of two overlapping live bookings came over as deleted.
      expect(JSON.stringify(await (await get('/api/bookings/103')).json())).toContain('"deleted":1');
      expect(JSON.stringify(await (await get('/api/bookings/102')).json())).toContain('"deleted":0');
      expect((await get('/api/bookings/101', '00000000-0000-4000-8000-000000000000')).status).toBe(401);
      const positions = JSON.stringify(await (await get('/api/positions')).json());
      expect(positions).toContain('ENGM_APP');
      expect(positions.match(/"EKCH_GND"/g)).toHaveLength(1);
      // A position moved without a frequency is listed with "", not a made-up "0.000".
      expect(JSON.parse(positions).data.find((p: { callsign: string }) => p.callsign === 'ENGM_APP').frequency).toBe('');
      // Both keys named "Discord bot" came over, each token working.
      expect((await get('/api/bookings/101', SECOND_BOT_TOKEN)).status).toBe(200);

      // Users with every relation, as the bots read them (the Control Center profile: {"data": […]}).
      const users = (await json('/api/users?include=allUsers,endorsements,roles,training,name,email,divisions,activeAreas')).data;
      const bo = users.find((u: { id: number }) => u.id === 10000002);
      expect(bo).toMatchObject({
        id: 10000002,
        rating: 'S2',
        first_name: 'Bo',
        email: 'bo@example.org',
        atc_active: true,
        atc_active_areas: { denmark: true },
        roles: { Denmark: ['Buddy'] },
        endorsements: { facility: [expect.objectContaining({ rating: 'T1 EKCH TWR' })], training: { solo: null } },
        training: [expect.objectContaining({ area: 'Denmark', status: 2, ratings: ['S3'] })],
      });
      // Cy is active nowhere (Control Center's atc_active 0); his training lists its facility too.
      expect(users.find((u: { id: number }) => u.id === 10000003)).toMatchObject({
        atc_active: false,
        atc_active_areas: { denmark: false },
        training: [expect.objectContaining({ status: 0, ratings: ['S2', 'T1 EKCH TWR'] })],
      });

      // Endorsements keep who issued them.
      const endorsements = (await json('/api/endorsements?user_id=10000001')).data;
      expect(endorsements).toEqual([expect.objectContaining({ type: 'facility', rating: 'T1 EKCH TWR', issued_by: 10000004 })]);

      // Trainings: statuses, ratings and facilities, mentors, pause, closing.
      const trainings: Training[] = (await json('/api/trainings')).data;
      const of = (cid: number) => trainings.find((t) => t.user_id === cid)!;
      expect(trainings).toHaveLength(4);
      expect(of(10000002)).toMatchObject({
        area: 'Denmark',
        type: 'Standard',
        status: 2,
        ratings: ['S3'],
        mentors: [10000001],
        paused: true,
        experience: 2,
        english_only: false,
        started_at: '2026-06-01T09:00:00.000000Z',
        motivation: 'I want to control Copenhagen Approach.',
      });
      expect(of(10000003)).toMatchObject({ status: 0, started_at: null, english_only: true });
      expect([...of(10000003).ratings].sort()).toEqual(['S2', 'T1 EKCH TWR']);
      expect(of(10000001)).toMatchObject({
        area: 'Norway',
        type: 'Refresh',
        status: -1,
        closed_at: '2026-08-10T12:00:00.000000Z',
        mentors: [10000004],
      });
      expect(of(10000005)).toMatchObject({ status: -2, closed_reason: 'No response from the student' });

      // Drafts stay drafts; examinations passed and failed; the timeline in order, with who acted.
      const active = await json(`/api/trainings/${of(10000002).id}`);
      expect(active.reports.map((r: { report_date: string; draft: boolean }) => [r.report_date, r.draft])).toEqual([
        ['2026-06-10', false],
        ['2026-07-02', true],
      ]);
      expect(active.reports[0]).toMatchObject({ position: 'EKCH_TWR', improve: 'Phraseology for line-up.', author_id: 10000001 });
      expect(active.examinations).toEqual([
        expect.objectContaining({ examination_date: '2026-10-15', position: 'EKCH_TWR', examiner_id: 10000004, result: 'FAILED' }),
      ]);
      expect(active.timeline.map((e: { action: string }) => e.action)).toEqual(['status', 'mentors', 'status', 'comment', 'pause']);
      expect(active.timeline[0]).toMatchObject({
        at: '2026-06-01T09:00:00.000000Z',
        actor: 'member:10000004',
        actor_name: 'Di Holm',
        detail: { from: 0, to: 1 },
      });
      expect(active.timeline[3].detail).toEqual({ comment: 'Student travels in November.' });
      const completed = await json(`/api/trainings/${of(10000001).id}`);
      expect(completed.examinations).toEqual([expect.objectContaining({ position: 'ENGM_APP', result: 'PASSED' })]);
    } finally {
      await server.stop();
    }
    // A second move into the now filled database is refused.
    const again = await move(url, databaseUrl);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds users or bookings/);
  });

  it('--dry-run prints the same report and writes nothing', async () => {
    const url = await controlCenterDatabase(version);
    const databaseUrl = freshDatabaseUrl();
    const dry = await move(url, databaseUrl, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/dry run, nothing was written/);
    expect(dry.stdout).toMatch(/bookings: 5 read, 5 imported, 0 skipped/);
    // Nothing was written: the real move still finds an empty database.
    expect((await move(url, databaseUrl)).code).toBe(0);
  });
});

/** Unclean rows as MySQL data holds them: zero dates and an invalid ENUM stored as '' (a lax SQL mode), an e-mail address that is not one. */
const DIRTY = `
SET SESSION sql_mode = '';
INSERT INTO users (id, email, first_name, last_name, rating, rating_short, rating_long, region, division, subdivision, last_login) VALUES
 (10000006,'fay@example.org','Fay','Dahl',3,'S2','Tower Trainee','EMEA','EUD','SCA','0000-00-00 00:00:00'),
 (10000007,'not an address','Gus','Lund',3,'S2','Tower Trainee','EMEA','EUD','SCA','2026-10-01 12:00:00');
INSERT INTO endorsements (id, user_id, type, valid_from, valid_to, expired, revoked, issued_by, created_at, updated_at) VALUES
 (7,10000006,'FACILITY','0000-00-00 00:00:00',NULL,0,0,NULL,'2024-01-01 00:00:00','2024-01-01 00:00:00'),
 (8,10000006,'VISITING','2025-02-01 00:00:00','0000-00-00 00:00:00',0,0,NULL,'2025-02-01 00:00:00','2025-02-01 00:00:00');
INSERT INTO endorsement_rating (endorsement_id, rating_id) VALUES (7,8),(8,3);
INSERT INTO area_endorsement (area_id, endorsement_id) VALUES (1,8);
INSERT INTO bookings (id, source, vatsim_booking, callsign, position_id, name, time_start, time_end, user_id, training, event, exam, deleted, created_at, updated_at) VALUES
 (106,'CC',NULL,'EKCH_GND',2,'Fay Dahl','0000-00-00 00:00:00','2027-03-05 12:00:00',10000006,0,0,0,0,'2026-11-01 08:00:00','2026-11-01 08:00:00'),
 (107,'CC',NULL,'EKCH_GND',2,'Fay Dahl','2027-03-06 10:00:00','2027-03-06 12:00:00',10000006,0,0,0,0,'0000-00-00 00:00:00','0000-00-00 00:00:00'),
 (108,'Discord bot!',NULL,'EKCH_GND',2,'Fay Dahl','2027-03-07 10:00:00','2027-03-07 12:00:00',10000006,0,0,0,0,'2026-11-01 08:00:00','2026-11-01 08:00:00');
INSERT INTO trainings (id, user_id, type, status, area_id, motivation, english_only_training, experience, paused_at, paused_length, closed_reason, created_by, created_at, updated_at, started_at, closed_at) VALUES
 (6,10000006,1,0,1,'Tower, please.',0,1,NULL,0,NULL,NULL,'0000-00-00 00:00:00','2026-02-01 10:00:00',NULL,'0000-00-00 00:00:00');
INSERT INTO rating_training (rating_id, training_id) VALUES (3,6);
INSERT INTO training_reports (id, training_id, written_by_id, report_date, content, contentimprove, position, draft, created_at, updated_at) VALUES
 (4,6,10000001,'0000-00-00','A report without a day.',NULL,NULL,0,'2026-02-02 20:00:00','2026-02-02 20:00:00');
INSERT INTO training_examinations (id, training_id, position_id, examiner_id, result, examination_date, created_at, updated_at) VALUES
 (4,6,1,10000004,'PASSED','0000-00-00','2026-02-03 20:00:00','2026-02-03 20:00:00');
INSERT INTO atc_activities (user_id, area_id, hours, start_of_grace_period, atc_active, created_at, updated_at) VALUES
 (10000006,1,3,'0000-00-00 00:00:00',1,'2026-01-01 00:00:00','2026-11-20 00:00:00');
`;

describe('import:controlcenter of unclean rows', () => {
  it('a zero date where one may be empty is no date (changed), where one is needed skips its row; each names its Control Center row', async () => {
    const url = await controlCenterDatabase('7.0', DIRTY);
    const databaseUrl = freshDatabaseUrl();
    const r = await move(url, databaseUrl, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout).report;
    expect(report.users).toMatchObject({ read: 7, imported: 6 });
    expect(report.users.skipped).toEqual([{ row: 'user 10000007', reason: 'email: is not an e-mail address' }]);
    expect(report.users.changed).toEqual([
      { row: 'user 10000006', reason: 'last_login is a zero date (0000-00-00 00:00:00): imported as no date' },
    ]);
    expect(report.endorsements.skipped).toContainEqual({ row: 'endorsement 7', reason: 'valid_from is a zero date (0000-00-00 00:00:00)' });
    expect(report.endorsements.changed).toEqual([
      { row: 'endorsement 8', reason: 'valid_to is a zero date (0000-00-00 00:00:00): imported as no date' },
    ]);
    expect(report.bookings.skipped).toEqual(
      expect.arrayContaining([
        { row: 'booking 106', reason: 'time_start is a zero date (0000-00-00 00:00:00)' },
        { row: 'booking 108', reason: expect.stringMatching(/^source: must be/) },
      ]),
    );
    expect(report.bookings.changed).toContainEqual({
      row: 'booking 107',
      reason: 'created_at is a zero date (0000-00-00 00:00:00): imported as no date',
    });
    expect(report.bookings).toMatchObject({ read: 8, imported: 6 });
    expect(report.trainings.changed).toEqual([
      { row: 'training 6', reason: expect.stringContaining('created_at is a zero date (0000-00-00 00:00:00)') },
    ]);
    expect(report.training_reports.skipped).toEqual([{ row: 'report 4', reason: 'report_date is a zero date (0000-00-00)' }]);
    expect(report.training_examinations.skipped).toContainEqual({
      row: 'examination 4',
      reason: 'examination_date is a zero date (0000-00-00)',
    });
    expect(report.atc_activity.changed).toEqual([
      {
        row: 'activity of user 10000006 in area 1',
        reason: 'start_of_grace_period is a zero date (0000-00-00 00:00:00): imported as no date',
      },
    ]);
    // What came over: Fay without a last sign-in, her open-ended visiting endorsement, her training from its update.
    const users = await runCliAsync(['export'], { DATABASE_URL: databaseUrl });
    const exported = JSON.parse(users.stdout);
    expect(exported.users.find((u: { id: number }) => u.id === 10000006)).toMatchObject({ last_login: null });
    expect(exported.endorsements.filter((e: { user_id: number }) => e.user_id === 10000006)).toEqual([
      expect.objectContaining({ type: 'visiting', valid_to: null }),
    ]);
    expect(exported.trainings.find((t: { user_id: number }) => t.user_id === 10000006)).toMatchObject({
      created_at: expect.stringMatching(/^2026-02-01T10:00:00/),
    });
  });

  it('a row that does not fit after the mapping names its Control Center table and id, never an index', async () => {
    // An area name over 100 characters cannot be imported, and the move cannot go without it.
    const url = await controlCenterDatabase(
      '7.0',
      `\nINSERT INTO areas (id, name, contact) VALUES (3,'${'N'.repeat(120)}','x@example.org');`,
    );
    const r = await move(url, freshDatabaseUrl());
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/areas\[id=3\]/);
    expect(r.stderr).not.toMatch(/areas\[\d+\]/);
  });
});

describe('import:controlcenter --prefix', () => {
  it('reads a Control Center whose tables carry DB_TABLE_PREFIX, and refuses it without the prefix', async () => {
    const url = await controlCenterDatabase('7.0');
    const conn = await mysql.createConnection({ ...MARIADB, database: url.slice(url.lastIndexOf('/') + 1) });
    try {
      const [tables] = await conn.query<mysql.RowDataPacket[]>('SHOW TABLES');
      const names = tables.map((t) => String(Object.values(t)[0]));
      await conn.query(`RENAME TABLE ${names.map((n) => `\`${n}\` TO \`cc_${n}\``).join(', ')}`);
    } finally {
      await conn.end();
    }
    const databaseUrl = freshDatabaseUrl();
    const without = await move(url, databaseUrl);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/not a Control Center database/);
    const r = await move(url, databaseUrl, '--prefix', 'cc_', '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout).report;
    expect(report.users).toMatchObject({ read: 5, imported: 5 });
    expect(report.bookings).toMatchObject({ read: 5, imported: 5 });
    expect(report.trainings).toMatchObject({ read: 5, imported: 4 });
  });
});

describe('a Control Center token tried before its move', () => {
  it('is refused before the move and accepted at once after it, by a server that was running all along', async () => {
    const databaseUrl = freshDatabaseUrl();
    const server = await startServer({ DATABASE_URL: databaseUrl });
    try {
      const get = () => fetch(`${server.url}/api/bookings/101`, { headers: { authorization: `Bearer ${BOT_TOKEN}` } });
      expect((await get()).status).toBe(401);
      const r = await move(await controlCenterDatabase('7.0'), databaseUrl);
      expect(r.code, r.stderr).toBe(0);
      // The id the server found no key for names the moved key now.
      expect((await get()).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('a moved booking and the network', () => {
  it('a moved booking changed in Sector is a PUT of the same network booking, never a second POST', async () => {
    const databaseUrl = freshDatabaseUrl();
    expect((await move(await controlCenterDatabase('7.0'), databaseUrl)).code).toBe(0);
    const network = await startNetworkStandIn([{ token: 'network-key', division: 'EUD' }]);
    // The booking Control Center pushed long ago, as the network holds it.
    network.bookings.set(5551, {
      id: 5551,
      api_key_id: 1,
      callsign: 'EKCH_TWR',
      cid: 10000002,
      type: 'booking',
      start: '2027-03-01 10:00:00',
      end: '2027-03-01 12:00:00',
      division: 'EUD',
      subdivision: null,
    });
    const server = await startServer({ DATABASE_URL: databaseUrl, NETWORK_BOOKINGS_URL: network.url, NETWORK_BOOKINGS_KEY: 'network-key' });
    try {
      const res = await fetch(`${server.url}/api/bookings/101`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${WEBSITE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ end_at: '13:00' }),
      });
      expect(res.status).toBe(200);
      await eventually(() => network.bookings.get(5551)!.end === '2027-03-01 13:00:00', 'the change on the network');
      expect(network.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /api/booking/5551']);
      expect(network.bookings.size).toBe(1);
    } finally {
      await server.stop();
      await network.close();
    }
  });
});

describe('import:controlcenter refusals (one line, exit 1, nothing written, no password)', () => {
  it.each([
    ['a server that does not respond', () => `mysql://${USER}:${PASSWORD}@127.0.0.1:1/cc`, /does not respond/],
    ['bad credentials', async () => (await controlCenterDatabase('7.0')).replace(PASSWORD, `${PASSWORD}-wrong`), /refused user/],
    [
      'a database that is not Control Center',
      () => controlCenterDatabase('7.0', '\nDROP TABLE migrations;'),
      /not a Control Center database/,
    ],
    [
      'a version it does not know',
      () => controlCenterDatabase('7.0', "\nINSERT INTO migrations (migration, batch) VALUES ('2027_01_01_000000_future', 2);"),
      /unknown Control Center version/,
    ],
  ])('%s', async (_what, target, message) => {
    const url = await target();
    const databaseUrl = freshDatabaseUrl();
    const r = await move(url, databaseUrl);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    // Nothing written: a good move afterwards succeeds.
    expect((await move(await controlCenterDatabase('7.0'), databaseUrl)).code).toBe(0);
  });
});

describe('import:controlcenter at an address where another kind of server listens', () => {
  const listen = async (server: net.Server): Promise<number> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };
  it.each([
    [
      'an HTTP server',
      () => http.createServer((_req, res) => res.end('hello')),
      /is not a MySQL\/MariaDB server \(an HTTP server answers there\)/,
    ],
    [
      'a server that greets in another protocol',
      () => net.createServer((s) => s.end('SSH-2.0-OpenSSH_9.2\r\n')),
      /is not a MySQL\/MariaDB server/,
    ],
  ])('%s: says it is not a MySQL/MariaDB server (one line, exit 1, nothing written)', async (_what, create, message) => {
    const server = create();
    const port = await listen(server);
    try {
      const r = await move(`mysql://${USER}:${PASSWORD}@127.0.0.1:${port}/cc`, freshDatabaseUrl());
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/does not respond|ETIMEDOUT/);
      expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    } finally {
      if (server instanceof http.Server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
