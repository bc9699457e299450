// `import:controlcenter`: a Control Center division moved into an empty Sector database in one
// transaction (contract §19). Reading and mapping live in import/controlcenter; the writing is
// the import's own path, with the API keys in the same transaction.
import { planControlCenterImport, type ControlCenterPlan } from '../import/controlcenter/map.js';
import { ControlCenterError, readControlCenter } from '../import/controlcenter/read.js';
import { parseImport } from '../import/parse.js';
import type { ImportPlan } from '../import/plan.js';
import { controlCenterTokenId, hashSecret } from './api-key-tokens.js';
import { DatabaseNotEmptyError, ImportError, type Imports } from './import.js';

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

/** Reads, checks and (unless a dry run) writes; throws ControlCenterError with one line. */
export async function importControlCenter(imports: Imports, url: string, options: ControlCenterOptions = {}): Promise<ControlCenterPlan> {
  if (await imports.holdsDivisionData()) throw new ControlCenterError(NOT_EMPTY);
  const source = await readControlCenter(url, options.prefix ?? '');
  try {
    const plan = planControlCenterImport(source.data);
    source.data = { ...source.data, bookings: [] };
    /** Each page of bookings, checked as the import format's. */
    const bookingPages = async function* () {
      for await (const rows of source.bookingPages(BOOKING_PAGE)) yield parseImport({ bookings: plan.bookings(rows) }).bookings;
    };
    if (options.dryRun) {
      imports.check(plan.doc);
      // Every page is read and checked as the move would; nothing is kept.
      let checked = 0;
      for await (const page of bookingPages()) checked += page.length;
      if (checked !== plan.report.bookings!.imported)
        throw new ControlCenterError('the bookings changed while they were read; run it again');
      return plan;
    }
    const counts = Object.fromEntries(
      Object.entries(plan.report).map(([k, r]) => [k, { read: r.read, imported: r.imported, skipped: r.skipped.length }]),
    );
    const parsed = parseImport(plan.doc);
    // The parsed plan is all the write needs: the document's memory can go.
    plan.doc = {};
    await imports.apply(parsed, {
      intoEmptyDatabase: true,
      history: true,
      source: 'controlcenter',
      auditExtra: { bookings: plan.report.bookings!.imported, controlcenter_version: plan.version, controlcenter: counts },
      alsoWrite: async (w) => {
        let written = 0;
        for await (const bookings of bookingPages()) {
          await w.repos.import.apply({ ...NOTHING, bookings }, w.at, false);
          written += bookings.length;
        }
        if (written !== plan.report.bookings!.imported) throw new ControlCenterError(CHANGED);
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
    if (err instanceof ImportError) throw new ControlCenterError(`the moved data does not fit: ${err.message}; nothing was imported`);
    throw err;
  } finally {
    await source.close();
  }
}
