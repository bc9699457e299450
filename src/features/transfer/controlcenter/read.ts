// Reads a Control Center database (MySQL or MariaDB) for `import:controlcenter` (contract §19).
// Every failure becomes one line that never holds the connection URL or its password.
import type { Connection } from 'mysql2/promise';
import { probeServer } from './probe.js';

export type Row = Record<string, string | number | null>;

export class ControlCenterError extends Error {}

export type ControlCenterVersion = '6.x' | '7.x';

export interface ControlCenterData {
  version: ControlCenterVersion;
  areas: Row[];
  ratings: Row[];
  users: Row[];
  positions: Row[];
  endorsements: Row[];
  endorsementRatings: Row[];
  endorsementPositions: Row[];
  endorsementAreas: Row[];
  /** 6.x `permissions` (group_id) or 7.x `role_user` (role). */
  roles: Row[];
  apiKeys: Row[];
  settings: Row[];
  trainings: Row[];
  /** `rating_training`. */
  trainingRatings: Row[];
  /** `training_mentor`. */
  trainingMentors: Row[];
  trainingReports: Row[];
  trainingExaminations: Row[];
  /** `training_activity`: the timeline. */
  trainingActivity: Row[];
  /** `atc_activities`: per user and area, with `atc_active` and `start_of_grace_period`. */
  atcActivities: Row[];
  /** `training_object_attachments` with their `files` row (name, path, uploaded_by); none where the tables are missing. */
  trainingAttachments: Row[];
  /** `tasks` and `feedback` (Control Center since 2023); none where the tables are missing. */
  tasks: Row[];
  feedback: Row[];
  // Votes and the sweatbox (contract §23): `votes`, `vote_options`, `user_vote` (who voted, no time) and `sweatbooks`.
  votes: Row[];
  voteOptions: Row[];
  voteUsers: Row[];
  /** 7.x: time_start, time_end; 6.x: date, start_at, end_at. */
  sweatbooks: Row[];
}

const USERS_TABLE = '2020_03_08_200000_create_users_table';
const SIX = '2024_07_19_123109_rename_masc_to_facility';
const SEVEN = '2026_04_05_133246_refactor_groups_to_config_roles';
/** The newest migration of the newest version this import knows (7.0). */
const NEWEST_KNOWN = '2026_08_07_120000_fix_feedback_enabled_setting_key';

/** The version from the names in CC's `migrations` table; throws on one it does not know. */
export function versionOf(migrations: string[]): ControlCenterVersion {
  const names = new Set(migrations);
  if (!names.has(USERS_TABLE))
    throw new ControlCenterError('not a Control Center database (its migrations table has no Control Center migrations)');
  const newest = [...names].sort().at(-1)!;
  if (newest > NEWEST_KNOWN)
    throw new ControlCenterError(`unknown Control Center version (newest migration ${newest}); this import knows 6.x and 7.0`);
  if (names.has(SEVEN)) return '7.x';
  if (names.has(SIX)) return '6.x';
  throw new ControlCenterError(`unknown Control Center version (newest migration ${newest}); this import knows 6.x and 7.0`);
}

interface Target {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export function parseUrl(url: string): Target {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ControlCenterError('the Control Center database must be given as mysql://user:password@host:port/database');
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if ((u.protocol !== 'mysql:' && u.protocol !== 'mariadb:') || !u.hostname || !database)
    throw new ControlCenterError('the Control Center database must be given as mysql://user:password@host:port/database');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database,
  };
}

function connectError(err: unknown, t: Target): ControlCenterError {
  const code = (err as { code?: string }).code ?? '';
  const where = `${t.host}:${t.port}`;
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR')
    return new ControlCenterError(`the database server at ${where} refused user "${t.user}" (wrong user or password)`);
  if (code === 'ER_BAD_DB_ERROR') return new ControlCenterError(`the database server at ${where} has no database "${t.database}"`);
  return new ControlCenterError(`the database server at ${where} does not respond (${code || 'no response'})`);
}

const CONNECT_TIMEOUT_MS = 5000;

const OVERLAP_COLUMNS = 'id, position_id, user_id, time_start, time_end, deleted, created_at';
const BOOKING_COLUMNS =
  'id, position_id, user_id, time_start, time_end, source, deleted, vatsim_booking, training, exam, event, created_at, updated_at';

const BOOLEAN_FREE = /^[A-Za-z0-9_]*$/;

/** An open Control Center database: every table but bookings read, and bookings to read in pages. */
export interface ControlCenterSource {
  data: ControlCenterData;
  /**
   * Every booking by id, a page at a time (the largest table): with the columns the move uses, or
   * (`overlaps`) only what finding skips and overlaps needs.
   */
  bookingPages(size: number, overlaps?: boolean): AsyncGenerator<Row[]>;
  close(): Promise<void>;
}

export async function readControlCenter(url: string, prefix = ''): Promise<ControlCenterSource> {
  const t = parseUrl(url);
  if (!BOOLEAN_FREE.test(prefix)) throw new ControlCenterError('--prefix may hold only letters, digits and _');
  const probe = await probeServer(t.host, t.port, CONNECT_TIMEOUT_MS);
  if (probe.kind === 'no-response') throw connectError({ code: probe.code }, t);
  if (probe.kind === 'other')
    throw new ControlCenterError(`the server at ${t.host}:${t.port} is not a MySQL/MariaDB server (${probe.what} answers there)`);
  let conn: Connection;
  try {
    // Loaded here, not at start: every other command of the CLI runs without the MySQL driver.
    const { default: mysql } = await import('mysql2/promise');
    // dateStrings: times come as Control Center stores them, UTC 'Y-m-d H:i:s'.
    conn = await mysql.createConnection({ ...t, connectTimeout: CONNECT_TIMEOUT_MS, dateStrings: true, supportBigNumbers: true });
  } catch (err) {
    throw connectError(err, t);
  }
  const all = async (table: string, order = '', columns = '*'): Promise<Row[]> => {
    const [rows] = await conn.query(`SELECT ${columns} FROM \`${prefix}${table}\`${order ? ` ORDER BY ${order}` : ''}`);
    return rows as Row[];
  };
  const readError = (err: unknown): ControlCenterError => {
    if (err instanceof ControlCenterError) return err;
    const code = (err as { code?: string }).code ?? 'error';
    return new ControlCenterError(`cannot read the Control Center database "${t.database}" (${code})`);
  };
  const close = () => conn.end().catch(() => undefined);
  try {
    let migrations: Row[];
    try {
      migrations = await all('migrations');
    } catch {
      throw new ControlCenterError(`not a Control Center database (no ${prefix}migrations table in "${t.database}")`);
    }
    const version = versionOf(migrations.map((m) => String(m.migration)));
    // Tables a Control Center from before tasks and feedback lacks: read as none.
    const optional = (table: string) =>
      all(table, 'id').catch((err: unknown) => {
        if ((err as { code?: string }).code === 'ER_NO_SUCH_TABLE') return [];
        throw err;
      });
    const data: ControlCenterData = {
      version,
      areas: await all('areas', 'id'),
      ratings: await all('ratings', 'id'),
      users: await all('users', 'id'),
      positions: await all('positions', 'id'),
      endorsements: await all('endorsements', 'id'),
      endorsementRatings: await all('endorsement_rating'),
      endorsementPositions: await all('endorsement_position'),
      endorsementAreas: await all('area_endorsement'),
      roles: version === '7.x' ? await all('role_user', 'id') : await all('permissions'),
      apiKeys: await all('api_keys', 'created_at'),
      settings: await all('settings'),
      trainings: await all('trainings', 'id'),
      trainingRatings: await all('rating_training'),
      trainingMentors: await all('training_mentor'),
      trainingReports: await all('training_reports', 'id'),
      trainingExaminations: await all('training_examinations', 'id'),
      trainingActivity: await all('training_activity', 'id'),
      atcActivities: await all('atc_activities', 'id'),
      trainingAttachments: await conn
        .query(
          `SELECT a.id, a.object_type, a.object_id, a.hidden, a.created_at, f.name, f.path, f.uploaded_by FROM \`${prefix}training_object_attachments\` a JOIN \`${prefix}files\` f ON f.id = a.file_id ORDER BY a.id`,
        )
        .then(([rows]) => rows as Row[])
        .catch((err: unknown) => {
          if ((err as { code?: string }).code === 'ER_NO_SUCH_TABLE') return [];
          throw err;
        }),
      tasks: await optional('tasks'),
      feedback: await optional('feedback'),
      votes: await all('votes', 'id'),
      voteOptions: await all('vote_options', 'id'),
      voteUsers: await all('user_vote', 'vote_id, user_id'),
      sweatbooks: await all('sweatbooks', 'id'),
    };
    async function* bookingPages(size: number, overlaps = false): AsyncGenerator<Row[]> {
      let after = -1;
      for (;;) {
        let rows: Row[];
        try {
          [rows] = (await conn.query(
            `SELECT ${overlaps ? OVERLAP_COLUMNS : BOOKING_COLUMNS} FROM \`${prefix}bookings\` WHERE id > ? ORDER BY id LIMIT ?`,
            [after, size],
          )) as unknown as [Row[]];
        } catch (err) {
          throw readError(err);
        }
        if (rows.length === 0) return;
        yield rows;
        after = Number(rows.at(-1)!.id);
      }
    }
    return { data, bookingPages, close };
  } catch (err) {
    await close();
    throw readError(err);
  }
}
