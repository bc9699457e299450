// `import:controlcenter`: a Control Center division moved into an empty Sector database in one
// transaction (contract §19). Reading and mapping live in import/controlcenter; the writing is
// the import's own path, with the API keys in the same transaction.
import { planControlCenterImport, type ControlCenterPlan } from '../import/controlcenter/map.js';
import { ControlCenterError, readControlCenter } from '../import/controlcenter/read.js';
import { parseBooking } from '../import/bookings.js';
import { fits, rowLabel } from '../import/controlcenter/values.js';
import { parseImport } from '../import/parse.js';
import { type ImportBooking, ImportError, type ImportPlan } from '../import/plan.js';
import { controlCenterTokenId, hashSecret } from './api-key-tokens.js';
import { DatabaseNotEmptyError, type Imports } from './import.js';

export { ControlCenterError };
export type { ControlCenterPlan };

export interface ControlCenterOptions {
  prefix?: string;
  dryRun?: boolean;
}

/** Bookings read, checked and written at a time: small pages keep a large division's garbage young (peak RSS). */
const BOOKING_PAGE = 400;
const NOTHING: ImportPlan = { areas: [], users: [], positions: [], endorsements: [], roles: [], trainings: [], bookings: [] };

/** Bookings are read twice (a first pass for overlaps, then in pages): Control Center must be stopped. */
const CHANGED = "Control Center's bookings changed while they were read; stop Control Center and run it again; nothing was imported";
const NOT_EMPTY = 'the Sector database already holds users or bookings; import:controlcenter moves a division only into an empty one';

/** A message's paths into the import document (`users[3]`) as the Control Center rows they came from (`users[id=10000001]`). */
function controlCenterPaths(text: string, labels: Record<string, string[]>): string {
  return text.replace(/\b(areas|users|positions|endorsements|roles|trainings)\[(\d+)\]/g, (path, section: string, i: string) => {
    return labels[section]?.[Number(i)] ?? path;
  });
}

/** Reads, checks and (unless a dry run) writes; throws ControlCenterError with one line. */
export async function importControlCenter(imports: Imports, url: string, options: ControlCenterOptions = {}): Promise<ControlCenterPlan> {
  if (await imports.holdsDivisionData()) throw new ControlCenterError(NOT_EMPTY);
  const source = await readControlCenter(url, options.prefix ?? '');
  let labels: Record<string, string[]> = {};
  try {
    const plan = planControlCenterImport(source.data);
    labels = plan.labels;
    source.data = { ...source.data, bookings: [] };
    const bookingsReport = plan.report.bookings!;
    /** Bookings found unfit in a page (once, though a retried write reads the pages again). */
    const unfit = new Set<number>();
    /**
     * Each page of bookings, checked as the import format's, each naming its Control Center row; a
     * booking that does not fit is skipped with its reason, like the rows the first pass skips.
     */
    const bookingPages = async function* () {
      for await (const rows of source.bookingPages(BOOKING_PAGE)) {
        const page: ImportBooking[] = [];
        for (const b of plan.bookings(rows)) {
          const id = Number(b.id);
          const label = rowLabel('bookings', id);
          if (unfit.has(id)) continue;
          if (fits(bookingsReport, `booking ${id}`, label, () => page.push(parseBooking(b, label)))) continue;
          unfit.add(id);
          bookingsReport.imported -= 1;
        }
        yield page;
      }
    };
    /** The document checked, each record named by its Control Center row (for every later message too). */
    const parseDoc = (): ImportPlan => {
      const parsed = parseImport(plan.doc);
      for (const section of [parsed.users, parsed.positions, parsed.endorsements, parsed.roles, parsed.trainings])
        for (const record of section) record.path = controlCenterPaths(record.path, plan.labels);
      return parsed;
    };
    if (options.dryRun) {
      parseDoc();
      // Every page is read and checked as the move would; nothing is kept.
      let checked = 0;
      for await (const page of bookingPages()) checked += page.length;
      if (checked !== bookingsReport.imported) throw new ControlCenterError('the bookings changed while they were read; run it again');
      return plan;
    }
    const counts = Object.fromEntries(
      Object.entries(plan.report).map(([k, r]) => [k, { read: r.read, imported: r.imported, skipped: r.skipped.length }]),
    );
    const auditExtra = { bookings: bookingsReport.imported, controlcenter_version: plan.version, controlcenter: counts };
    const parsed = parseDoc();
    // The parsed plan is all the write needs: the document's memory can go.
    plan.doc = {};
    await imports.apply(parsed, {
      intoEmptyDatabase: true,
      history: true,
      source: 'controlcenter',
      auditExtra,
      alsoWrite: async (w) => {
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
    });
    return plan;
  } catch (err) {
    if (err instanceof DatabaseNotEmptyError) throw new ControlCenterError(NOT_EMPTY);
    if (err instanceof ImportError)
      throw new ControlCenterError(`Control Center's data does not fit: ${controlCenterPaths(err.message, labels)}; nothing was imported`);
    throw err;
  } finally {
    await source.close();
  }
}
