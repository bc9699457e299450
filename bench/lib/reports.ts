// The `reports` scenario (contract §25): each staff report page over a division of 20,000 users,
// 100,000 bookings, 5,000 trainings and 200,000 controlling sessions renders with a p99 under a second,
// on SQLite and on PostgreSQL. The rows are written straight into a migrated database (the import
// would take minutes for figures no import test needs), then a server is asked for each page in turn.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import type { Database } from '../../src/core/db/schema.js';
import { SIGN_IN_ENV, signInOnDatabase } from '../../test/support/members.js';
import { exchange } from './http.js';
import { percentile } from './load.js';
import { atExit } from './processes.js';
import { startSector, stopSector } from './sector.js';

export const REPORTS_SCALE = { users: 20_000, bookings: 100_000, trainings: 5_000, sessions: 200_000 } as const;
export const REPORT_PAGES = [
  '/staff/reports/trainings',
  '/staff/reports/activity',
  '/staff/reports/mentors',
  '/staff/reports/access',
  '/staff/reports/trainings?area=Area1',
  '/staff/reports/activity?format=csv',
  '/staff/audit',
];
export const REPORTS_P99_MS = 1000;

export interface PageFigures {
  page: string;
  median_ms: number;
  p99_ms: number;
}
export type ReportsFigures = Record<'sqlite' | 'postgres', PageFigures[] | null>;

const ADMIN = 1_000_000;
const AREAS = 5;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A small deterministic generator: the same division on both databases and every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rows generated for the table's columns, 1,000 a statement (inside the caller's transaction). */
async function insert(db: Kysely<Database>, table: keyof Database, rows: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 1000) as never)
      .execute();
  }
}

/** Writes the division: areas, positions, users, roles, bookings, trainings with their records, sessions. */
export async function fillReportsDivision(db: Kysely<Database>, now: number): Promise<void> {
  const r = random(7);
  const pick = (n: number) => Math.floor(r() * n);
  const userId = (i: number) => ADMIN + 1 + i;
  const areas = Array.from({ length: AREAS }, (_, i) => ({ id: i + 1, name: `Area${i + 1}` }));
  await insert(db, 'areas', areas);
  const positions = Array.from({ length: AREAS * 20 }, (_, i) => ({
    id: i + 1,
    callsign: `A${(i % AREAS) + 1}P${i}_TWR`,
    name: `Position ${i}`,
    frequency: '118.000',
    area_id: (i % AREAS) + 1,
    rating: 2,
    required_facility: null,
  }));
  await insert(db, 'positions', positions);
  const user = (id: number) => ({
    id,
    email: null,
    first_name: `First${id}`,
    last_name: `Last${id}`,
    rating: 2 + pick(4),
    region: 'EMEA',
    division: 'EUD',
    subdivision: 'SCA',
    created_at: now,
    updated_at: now,
  });
  await insert(db, 'users', [user(ADMIN), ...Array.from({ length: REPORTS_SCALE.users }, (_, i) => user(userId(i)))]);
  await insert(db, 'roles', [
    { user_id: ADMIN, area_id: null, role: 'Administrator' },
    ...Array.from({ length: 100 }, (_, i) => ({ user_id: userId(i), area_id: (i % AREAS) + 1, role: i < 10 ? 'Moderator' : 'Mentor' })),
  ]);
  await insert(
    db,
    'bookings',
    Array.from({ length: REPORTS_SCALE.bookings }, (_, i) => {
      // Each position a booking every 8 hours (bookings of a position never overlap).
      const start = now - 365 * DAY + Math.floor(i / positions.length) * 8 * HOUR;
      return {
        user_id: userId(pick(REPORTS_SCALE.users)),
        position_id: 1 + (i % positions.length),
        source: 'CC',
        network_booking: null,
        time_start: start,
        time_end: start + 2 * HOUR,
        training: 0,
        event: 0,
        exam: 0,
        deleted: 0,
        created_at: start - DAY,
        updated_at: start - DAY,
      };
    }),
  );
  const trainings = [];
  const timeline = [];
  const mentors = [];
  const reports = [];
  const exams = [];
  for (let i = 0; i < REPORTS_SCALE.trainings; i++) {
    const id = i + 1;
    const created = now - pick(730) * DAY;
    const status = [0, 0, 1, 2, 3, -1, -1, -2, -3, -4][pick(10)]!;
    const started = status === 0 || status === -3 ? null : created + pick(90) * DAY;
    const closed = status < 0 ? (started ?? created) + pick(120) * DAY : null;
    trainings.push({
      id,
      user_id: userId(100 + i),
      area_id: (i % AREAS) + 1,
      type: 'Standard',
      status,
      created_at: created,
      started_at: started,
      closed_at: closed,
      closed_reason: null,
      motivation: null,
      experience: 1,
      paused_at: null,
      queue_wait_ms: started === null ? null : started - created,
      interest_confirmed_at: null,
      interest_deadline: null,
    });
    timeline.push({
      training_id: id,
      at: created,
      actor: 'cli',
      actor_name: null,
      action: 'created',
      detail: '{"type":"Standard","status":0,"ratings":["S2"]}',
    });
    if (started !== null)
      timeline.push({ training_id: id, at: started, actor: 'cli', actor_name: null, action: 'status', detail: '{"from":0,"to":2}' });
    if (closed !== null)
      timeline.push({ training_id: id, at: closed, actor: 'cli', actor_name: null, action: 'status', detail: `{"from":2,"to":${status}}` });
    if (status >= 1) mentors.push({ training_id: id, user_id: userId(10 + pick(90)) });
    for (let k = 0; k < 4 && started !== null; k++) {
      const day = new Date(started + k * 7 * DAY).toISOString().slice(0, 10);
      reports.push({
        training_id: id,
        author_id: userId(10 + pick(90)),
        report_date: day,
        content: 'Report',
        improve: null,
        position: null,
        draft: 0,
        created_at: now,
        updated_at: now,
      });
    }
    if (status === -1 || status === 3) {
      const day = new Date(closed ?? now - pick(30) * DAY).toISOString().slice(0, 10);
      exams.push({
        id: exams.length + 1,
        training_id: id,
        examiner_id: userId(pick(10)),
        examination_date: day,
        position: positions[0]!.callsign,
        start: null,
        result: r() < 0.7 ? 'PASSED' : 'FAILED',
        created_at: now,
        updated_at: now,
      });
    }
  }
  await insert(db, 'trainings', trainings);
  await insert(
    db,
    'training_ratings',
    trainings.map((t) => ({ training_id: t.id, rating: 3 + pick(3) })),
  );
  await insert(db, 'training_timeline', timeline);
  await insert(db, 'training_mentors', mentors);
  await insert(db, 'training_reports', reports);
  await insert(db, 'training_examinations', exams);
  await insert(
    db,
    'training_examiners',
    exams.map((e) => ({ examination_id: e.id, ordinal: 1, user_id: e.examiner_id })),
  );
  await insert(
    db,
    'atc_sessions',
    Array.from({ length: REPORTS_SCALE.sessions }, (_, i) => {
      const start = now - 365 * DAY + Math.floor((i * 365 * DAY) / REPORTS_SCALE.sessions);
      const callsign = positions[pick(positions.length)]!.callsign;
      const end = start + (30 + pick(180)) * 60_000;
      return {
        cid: userId(pick(REPORTS_SCALE.users)),
        callsign,
        position: callsign,
        name: null,
        frequency: null,
        logon_time: start,
        feed_logon_time: null,
        last_seen: end,
        ended_at: end,
        source: 'feed',
      };
    }),
  );
  await insert(
    db,
    'user_area_activity',
    Array.from({ length: REPORTS_SCALE.users }, (_, i) => ({
      user_id: userId(i),
      area_id: (i % AREAS) + 1,
      active: r() < 0.6 ? 1 : 0,
      granted_at: r() < 0.1 ? now - pick(300) * DAY : null,
    })),
  );
  await insert(
    db,
    'audit_log',
    Array.from({ length: 20_000 }, (_, i) => ({
      at: now - i * 60_000,
      actor: `member:${ADMIN}`,
      actor_name: 'First Last',
      action: 'booking.updated',
      target: `booking:${i + 1}`,
      before: '{"time_end":1}',
      after: '{"time_end":2}',
    })),
  );
}

async function measurePages(label: string, databaseUrl: string, rounds: number, log: (line: string) => void): Promise<PageFigures[]> {
  const cookie = `sector_session=${await signInOnDatabase(databaseUrl, { id: ADMIN, first_name: 'First', last_name: 'Last', rating: 'C1' })}`;
  const sector = await startSector({ databaseUrl, label: `reports-${label}`, env: { ...SIGN_IN_ENV } });
  const out: PageFigures[] = [];
  try {
    for (const page of REPORT_PAGES) {
      const times: number[] = [];
      for (let i = 0; i < rounds + 3; i++) {
        const t0 = performance.now();
        const res = await exchange({ port: sector.port, path: page, headers: { cookie } });
        if (res.status !== 200) throw new Error(`${page} responded with ${res.status}: ${res.body.toString().slice(0, 200)}`);
        if (i >= 3) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const figures = { page, median_ms: Math.round(percentile(times, 50)), p99_ms: Math.round(percentile(times, 99)) };
      log(`   ${label} ${page}: median ${figures.median_ms} ms, p99 ${figures.p99_ms} ms`);
      out.push(figures);
    }
  } finally {
    const trouble = await stopSector(sector);
    if (trouble) log(trouble);
  }
  return out;
}

/** Both databases, `rounds` requests of each page after a warm-up of three. */
export async function measureReports({
  pgUrl,
  rounds,
  log,
}: {
  pgUrl: string;
  rounds: number;
  log: (line: string) => void;
}): Promise<ReportsFigures> {
  const now = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-reports-'));
  atExit(() => fs.rmSync(dir, { recursive: true, force: true }));
  const schema = `sector_bench_reports_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const targets = [
    ['sqlite', `sqlite:${path.join(dir, 'reports.db')}`],
    ['postgres', `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`],
  ] as const;
  const figures: ReportsFigures = { sqlite: null, postgres: null };
  try {
    for (const [label, databaseUrl] of targets) {
      const t0 = performance.now();
      const db = openDatabase(databaseUrl);
      try {
        await migrateToLatest(db);
        await db.kysely.transaction().execute((trx) => fillReportsDivision(trx, now));
      } finally {
        await db.close();
      }
      log(`   ${label}: division written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      figures[label] = await measurePages(label, databaseUrl, rounds, log);
    }
  } finally {
    const db = openDatabase(pgUrl);
    try {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db.kysely);
    } finally {
      await db.close();
    }
  }
  return figures;
}
