// `import:controlcenter`: a Control Center division moved into an empty Sector database in one
// transaction (contract §19). Reading and mapping live in import/controlcenter; the writing is
// the import's own path, with the API keys in the same transaction.
import v8 from 'node:v8';
import vm from 'node:vm';
import { parseBooking } from '../import/bookings.js';
import { planControlCenterImport, type ControlCenterPlan } from './map.js';
import { ControlCenterError, readControlCenter } from './read.js';
import { fits, rowLabel } from './values.js';
import { moveFiles } from './attachments.js';
import { type ImportBooking, ImportError, type ImportPlan } from '../import/plan.js';
import { controlCenterTokenId, hashSecret } from '../../api-keys/index.js';
import { DatabaseNotEmptyError, type ImportService } from '../import.service.js';

export { ControlCenterError };
export type { ControlCenterPlan };

export interface ControlCenterOptions {
  prefix?: string;
  dryRun?: boolean;
  /** Control Center's storage folder, holding the files its attachments name. */
  files?: string;
}

/** Bookings read, checked and written at a time: small pages keep a large division's garbage young (peak RSS). */
const BOOKING_PAGE = 400;
/** Bookings read at a time by the first pass, which reads a few columns of each. */
const OVERLAP_PAGE = 5000;
/** Records of the other kinds written at a time, for the same reason. */
const RECORD_PAGE = 400;
const NOTHING: ImportPlan = { areas: [], users: [], positions: [], endorsements: [], roles: [], trainings: [], bookings: [] };

/** Bookings are read twice (a first pass for overlaps, then in pages): Control Center must be stopped. */
const CHANGED = "Control Center's bookings changed while they were read; stop Control Center and run it again; nothing was imported";
const NOT_EMPTY = 'the Sector database already holds users or bookings; import:controlcenter moves a division only into an empty one';

/** Pages between two full garbage collections (see collectGarbage). */
const PAGES_PER_COLLECTION = 20;

/**
 * A full garbage collection. What the move holds at any time is small (some 50 MB for 20,000 users
 * and 100,000 bookings), but the engine lets the garbage of its pages grow to about four times what
 * it last found alive before it collects again, and the native memory of each page's finished
 * SQLite statements is only given back when their objects are collected: a collection every few
 * pages keeps the process's peak near what it holds (bench/README.md, `controlcenter`).
 */
function fullCollector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  let pages = 0;
  return () => {
    if (++pages % PAGES_PER_COLLECTION === 0) gc();
  };
}

/** Reads, checks and (unless a dry run) writes; throws ControlCenterError with one line. */
export async function importControlCenter(
  imports: ImportService,
  url: string,
  options: ControlCenterOptions = {},
): Promise<ControlCenterPlan> {
  if (await imports.holdsDivisionData()) throw new ControlCenterError(NOT_EMPTY);
  const source = await readControlCenter(url, options.prefix ?? '');
  const pageDone = fullCollector();
  try {
    const userIds = new Set(source.data.users.map((u) => Number(u.id)));
    const files = await moveFiles(source.data.trainingAttachments, options.files, userIds);
    const plan = planControlCenterImport(source.data, files.of);
    plan.report.training_attachments = files.report;
    for (const t of plan.parsed.trainings)
      for (const r of [...(t.reports ?? []), ...(t.examinations ?? [])])
        for (const a of r.attachments ?? []) a.content = files.bytes(a.sha256) ?? null;
    // Control Center's rows are all in the plan now: they can go.
    source.data = { version: source.data.version } as typeof source.data;
    // The first pass over the bookings (skips and overlaps), a page of a few columns at a time.
    for await (const rows of source.bookingPages(OVERLAP_PAGE, true)) {
      plan.bookings.add(rows);
      pageDone();
    }
    plan.bookings.finish();
    const bookingsReport = plan.report.bookings!;
    /** Bookings found unfit in a page (once, though the pages are read again). */
    const unfit = new Set<number>();
    /**
     * Each page of bookings, checked as the import format's, each naming its Control Center row; a
     * booking that does not fit is skipped with its reason, like the rows the first pass skips.
     */
    const bookingPages = async function* () {
      for await (const rows of source.bookingPages(BOOKING_PAGE)) {
        const page: ImportBooking[] = [];
        for (const b of plan.bookings.map(rows)) {
          const id = Number(b.id);
          const label = rowLabel('bookings', id);
          if (unfit.has(id)) continue;
          if (fits(bookingsReport, `booking ${id}`, label, () => page.push(parseBooking(b, label)))) continue;
          unfit.add(id);
          bookingsReport.imported -= 1;
        }
        yield page;
        pageDone();
      }
    };
    if (options.dryRun) {
      // Every page is read and checked as the move would; nothing is kept.
      let checked = 0;
      for await (const page of bookingPages()) checked += page.length;
      if (checked !== bookingsReport.imported) throw new ControlCenterError('the bookings changed while they were read; run it again');
      return plan;
    }
    const counts = Object.fromEntries(
      Object.entries(plan.report).map(([k, r]) => [k, { read: r.read, imported: r.imported, skipped: r.skipped.length }]),
    );
    const { parsed } = plan;
    // The audit entry counts every kind, though most are written below, a page at a time.
    const auditExtra = {
      users: parsed.users.length,
      endorsements: parsed.endorsements.length,
      roles: parsed.roles.length,
      trainings: parsed.trainings.length,
      tasks: parsed.tasks?.length ?? 0,
      feedback: parsed.feedback?.length ?? 0,
      bookings: bookingsReport.imported,
      controlcenter_version: plan.version,
      controlcenter: counts,
    };
    await imports.apply(
      { ...NOTHING, areas: parsed.areas, positions: parsed.positions },
      {
        intoEmptyDatabase: true,
        history: true,
        source: 'controlcenter',
        auditExtra,
        alsoWrite: async (w) => {
          // The large kinds in pages, users first (the others name them): each page's work is young
          // garbage, so the heap stays near what the move holds (peak RSS, bench/README.md).
          for (const section of ['users', 'endorsements', 'roles', 'trainings', 'tasks', 'feedback'] as const) {
            const records = parsed[section] ?? [];
            for (let i = 0; i < records.length; i += RECORD_PAGE) {
              await w.repos.import.apply({ ...NOTHING, [section]: records.slice(i, i + RECORD_PAGE) }, w.at, false);
              pageDone();
            }
          }
          // Votes, sweatbox sessions and facility tiers: they name users and positions, written by now.
          await w.repos.import.apply(
            { ...NOTHING, votes: parsed.votes, sweatbox: parsed.sweatbox, facilities: parsed.facilities },
            w.at,
            false,
          );
          let written = 0;
          for await (const bookings of bookingPages()) {
            await w.repos.import.apply({ ...NOTHING, bookings }, w.at, false);
            written += bookings.length;
          }
          if (written !== bookingsReport.imported) throw new ControlCenterError(CHANGED);
          // The audit entry, written after this, counts the bookings the pages skipped too.
          auditExtra.bookings = written;
          counts.bookings = { read: bookingsReport.read, imported: written, skipped: bookingsReport.skipped.length };
          for (const key of plan.apiKeys) {
            await w.repos.apiKeys.insert({
              id: controlCenterTokenId(key.token),
              name: key.name,
              scope: key.readOnly ? 'read' : 'edit',
              variant: null,
              compat: 'controlcenter',
              secret_hash: hashSecret(key.token.toLowerCase()),
              created_at: Date.parse(key.createdAt),
              expires_at: null,
            });
          }
        },
      },
    );
    return plan;
  } catch (err) {
    if (err instanceof DatabaseNotEmptyError) throw new ControlCenterError(NOT_EMPTY);
    if (err instanceof ImportError)
      throw new ControlCenterError(`Control Center's data does not fit: ${err.message}; nothing was imported`);
    throw err;
  } finally {
    await source.close();
  }
}
