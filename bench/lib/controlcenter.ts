// The `controlcenter` scenario of npm run bench: `import:controlcenter` of a large division (20,000
// users, 100,000 bookings, 30,000 endorsements, 5,000 trainings with their records) from a scratch
// MariaDB database holding Control Center 7.0's schema, into an empty SQLite database, as a CLI
// process: its time and its peak RSS (VmHWM). The scratch database is dropped afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { measureCli, ROOT } from './processes.js';

export const CONTROLCENTER_SIZE = { users: 20_000, bookings: 100_000, endorsements: 30_000, trainings: 5_000 };

export interface ControlCenterFigures {
  seconds: number;
  peakRssMb: number;
  /** Rows imported per kind, as the report says. */
  imported: Record<string, number>;
}

const MARIADB_URL = process.env.MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
const DATABASE = 'cc_bench';
const ROWS_PER_INSERT = 2_000;

type Value = string | number | null;

/** Set-based: one multi-row INSERT per ROWS_PER_INSERT rows. */
async function insert(conn: mysql.Connection, table: string, columns: string[], rows: Value[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    await conn.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [part]);
  }
}

const ts = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A Control Center 7.0 division of the given size, deterministic. */
export async function fill(conn: mysql.Connection, now: number): Promise<void> {
  const { users, bookings, endorsements, trainings } = CONTROLCENTER_SIZE;
  const HOUR = 3_600_000;
  const areas = ['Denmark', 'Finland', 'Iceland', 'Norway', 'Sweden'];
  await insert(
    conn,
    'areas',
    ['id', 'name', 'contact'],
    areas.map((a, i) => [i + 1, a, `training-${a.toLowerCase()}@example.org`]),
  );
  const ratings: Value[][] = [
    [1, 'S1', 'GND', 2, null],
    [2, 'S2', 'TWR', 3, null],
    [3, 'S3', 'APP', 4, null],
    [4, 'C1', 'ACC', 5, null],
  ];
  for (let a = 0; a < areas.length; a++)
    for (let f = 0; f < 4; f++)
      ratings.push([10 + a * 4 + f, `T${f + 1} ${areas[a]!.slice(0, 4).toUpperCase()}`, 'Facility', null, 'FACILITY']);
  await insert(conn, 'ratings', ['id', 'name', 'description', 'vatsim_rating', 'endorsement_type'], ratings);
  const positions: Value[][] = [];
  for (let p = 1; p <= 200; p++) {
    const a = (p - 1) % areas.length;
    const suffix = ['DEL', 'GND', 'TWR', 'APP', 'CTR'][p % 5]!;
    positions.push([
      p,
      `X${String(p).padStart(3, '0')}_${suffix}`,
      `Position ${p}`,
      (118 + (p % 18) + 0.005 * (p % 200)).toFixed(3),
      'XXXX',
      2 + (p % 4),
      a + 1,
      p % 3 === 0 ? 10 + a * 4 + (p % 4) : null,
    ]);
  }
  await insert(
    conn,
    'positions',
    ['id', 'callsign', 'name', 'frequency', 'fir', 'rating', 'area_id', 'required_facility_rating_id'],
    positions,
  );
  const cid = (i: number) => 1_000_000 + i;
  const userRows: Value[][] = [];
  for (let i = 1; i <= users; i++) {
    const rating = [1, 2, 3, 4, 5, 7, 8][i % 7]!;
    userRows.push([
      cid(i),
      `user${i}@example.org`,
      `First${i}`,
      `Last${i}`,
      rating,
      'S1',
      'Rating',
      'EMEA',
      'EUD',
      i % 4 === 0 ? null : 'SCA',
      ts(now - (i % 365) * 24 * HOUR),
    ]);
  }
  await insert(
    conn,
    'users',
    ['id', 'email', 'first_name', 'last_name', 'rating', 'rating_short', 'rating_long', 'region', 'division', 'subdivision', 'last_login'],
    userRows,
  );
  // Each position's bookings follow one another (three hours apart), a tenth of them deleted.
  const bookingRows: Value[][] = [];
  const start = now - 400 * 24 * HOUR;
  for (let b = 1; b <= bookings; b++) {
    const p = ((b - 1) % 200) + 1;
    const slot = Math.floor((b - 1) / 200);
    const from = start + slot * 3 * HOUR;
    bookingRows.push([
      b,
      ['CC', 'VATBOOK', 'DISCORD'][b % 3]!,
      b % 2 === 0 ? 100_000 + b : null,
      positions[p - 1]![1]!,
      p,
      'Name',
      ts(from),
      ts(from + 2 * HOUR),
      cid((b % users) + 1),
      b % 11 === 0 ? 1 : 0,
      b % 13 === 0 ? 1 : 0,
      b % 17 === 0 ? 1 : 0,
      b % 10 === 0 ? 1 : 0,
      ts(from - 24 * HOUR),
      ts(from - 24 * HOUR),
    ]);
  }
  await insert(
    conn,
    'bookings',
    [
      'id',
      'source',
      'vatsim_booking',
      'callsign',
      'position_id',
      'name',
      'time_start',
      'time_end',
      'user_id',
      'training',
      'event',
      'exam',
      'deleted',
      'created_at',
      'updated_at',
    ],
    bookingRows,
  );
  const types = ['FACILITY', 'SOLO', 'S1', 'VISITING', 'EXAMINER', 'MASC'];
  const endorsementRows: Value[][] = [];
  const links = { rating: [] as Value[][], position: [] as Value[][], area: [] as Value[][] };
  for (let e = 1; e <= endorsements; e++) {
    const type = types[e % types.length]!;
    const from = now - (e % 1000) * 24 * HOUR;
    endorsementRows.push([
      e,
      cid(((e * 7) % users) + 1),
      type,
      ts(from),
      type === 'SOLO' ? ts(from + 20 * 24 * HOUR) : null,
      e % 9 === 0 ? 1 : 0,
      e % 23 === 0 ? 1 : 0,
      cid(1),
      ts(from),
      ts(from),
    ]);
    if (type === 'FACILITY' || type === 'MASC') links.rating.push([e, 10 + (e % 20)]);
    else if (type === 'VISITING' || type === 'EXAMINER') {
      links.rating.push([e, 2 + (e % 3)]);
      links.area.push([(e % 5) + 1, e]);
    } else links.position.push([e, (e % 200) + 1]);
  }
  await insert(
    conn,
    'endorsements',
    ['id', 'user_id', 'type', 'valid_from', 'valid_to', 'expired', 'revoked', 'issued_by', 'created_at', 'updated_at'],
    endorsementRows,
  );
  await insert(conn, 'endorsement_rating', ['endorsement_id', 'rating_id'], links.rating);
  await insert(conn, 'endorsement_position', ['endorsement_id', 'position_id'], links.position);
  await insert(conn, 'area_endorsement', ['area_id', 'endorsement_id'], links.area);
  const t = {
    rows: [] as Value[][],
    ratings: [] as Value[][],
    mentors: [] as Value[][],
    reports: [] as Value[][],
    exams: [] as Value[][],
    activity: [] as Value[][],
  };
  for (let i = 1; i <= trainings; i++) {
    const status = [0, 1, 2, 3, -1, -2, -3, -4][i % 8]!;
    const created = now - (i % 700) * 24 * HOUR;
    const started = status === 0 ? null : ts(created + 30 * 24 * HOUR);
    t.rows.push([
      i,
      cid(i * 3),
      1 + (i % 5),
      status,
      (i % 5) + 1,
      'I would like to train.',
      i % 2,
      1 + (i % 6),
      null,
      0,
      status < -1 ? 'Closed' : null,
      ts(created),
      ts(created),
      started,
      status < 0 ? ts(created + 60 * 24 * HOUR) : null,
    ]);
    t.ratings.push([1 + (i % 4), i]);
    if (status !== 0) t.mentors.push([cid(2 + (i % 50)), i, ts(created + 365 * 24 * HOUR), ts(created), ts(created)]);
    for (let r = 0; r < 3; r++)
      t.reports.push([
        i,
        cid(2 + (i % 50)),
        day(created + (r + 1) * 7 * 24 * HOUR),
        `Session ${r + 1}: worked on the basics.`,
        r === 2 ? 'Phraseology' : null,
        null,
        r === 2 ? 1 : 0,
        ts(created),
        ts(created),
      ]);
    if (status === -1 || status === 3)
      t.exams.push([
        i,
        (i % 200) + 1,
        cid(1),
        status === -1 ? 'PASSED' : 'FAILED',
        day(created + 50 * 24 * HOUR),
        ts(created),
        ts(created),
      ]);
    t.activity.push(
      [i, cid(1), 'STATUS', 0, 1, null, ts(created + 30 * 24 * HOUR), ts(created)],
      [i, null, 'COMMENT', null, null, 'Note', ts(created + 31 * 24 * HOUR), ts(created)],
    );
  }
  await insert(
    conn,
    'trainings',
    [
      'id',
      'user_id',
      'type',
      'status',
      'area_id',
      'motivation',
      'english_only_training',
      'experience',
      'paused_at',
      'paused_length',
      'closed_reason',
      'created_at',
      'updated_at',
      'started_at',
      'closed_at',
    ],
    t.rows,
  );
  await insert(conn, 'rating_training', ['rating_id', 'training_id'], t.ratings);
  await insert(conn, 'training_mentor', ['user_id', 'training_id', 'expire_at', 'created_at', 'updated_at'], t.mentors);
  await insert(
    conn,
    'training_reports',
    ['training_id', 'written_by_id', 'report_date', 'content', 'contentimprove', 'position', 'draft', 'created_at', 'updated_at'],
    t.reports,
  );
  await insert(
    conn,
    'training_examinations',
    ['training_id', 'position_id', 'examiner_id', 'result', 'examination_date', 'created_at', 'updated_at'],
    t.exams,
  );
  await insert(
    conn,
    'training_activity',
    ['training_id', 'triggered_by_id', 'type', 'old_data', 'new_data', 'comment', 'created_at', 'updated_at'],
    t.activity,
  );
  const activity: Value[][] = [];
  for (let i = 1; i <= users; i += 2)
    activity.push([cid(i), (i % 5) + 1, i % 30, i % 6 === 1 ? ts(now - 30 * 24 * HOUR) : null, i % 3 === 0 ? 0 : 1, ts(now), ts(now)]);
  await insert(
    conn,
    'atc_activities',
    ['user_id', 'area_id', 'hours', 'start_of_grace_period', 'atc_active', 'created_at', 'updated_at'],
    activity,
  );
  const keys: Value[][] = [];
  for (let k = 1; k <= 10; k++)
    keys.push([`00000000-0000-4000-8000-${String(k).padStart(12, '0')}`, k % 4 === 0 ? 'Bot' : `Key ${k}`, k % 2, ts(now)]);
  await insert(conn, 'api_keys', ['id', 'name', 'read_only', 'created_at'], keys);
  await insert(
    conn,
    'settings',
    ['key', 'value'],
    [
      ['atcActivityRequirement', '10'],
      ['atcActivityQualificationPeriod', '12'],
      ['atcActivityGracePeriod', '12'],
    ],
  );
}

export async function measureControlCenter({ log }: { log: (line: string) => void }): Promise<ControlCenterFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-cc-'));
  const conn = await mysql.createConnection({ uri: MARIADB_URL, multipleStatements: true });
  try {
    const { users, bookings, endorsements, trainings } = CONTROLCENTER_SIZE;
    log(
      `   a Control Center 7.0 division in MariaDB: ${users} users, ${bookings} bookings, ${endorsements} endorsements, ${trainings} trainings`,
    );
    await conn.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await conn.query(`CREATE DATABASE \`${DATABASE}\``);
    await conn.changeUser({ database: DATABASE });
    await conn.query(fs.readFileSync(path.join(ROOT, 'test/fixtures/controlcenter/schema-7.0.sql'), 'utf8'));
    await fill(conn, Date.now());
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'moved.db')}`, LOG_LEVEL: 'warn' };
    const { seconds, peak, stdout } = await measureCli(['import:controlcenter', `${MARIADB_URL}/${DATABASE}`, '--json'], env);
    const report = (JSON.parse(stdout) as { report: Record<string, { imported: number }> }).report;
    const imported = Object.fromEntries(Object.entries(report).map(([k, r]) => [k, r.imported]));
    log(`   moved in ${seconds.toFixed(1)} s, peak RSS ${peak.toFixed(0)} MB; imported ${JSON.stringify(imported)}`);
    return { seconds, peakRssMb: peak, imported };
  } finally {
    await conn.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``).catch(() => undefined);
    await conn.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
