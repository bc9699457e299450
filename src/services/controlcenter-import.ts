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

const BOOKING_SLICE = 10_000;
const NOTHING: ImportPlan = { areas: [], users: [], positions: [], endorsements: [], roles: [], trainings: [], bookings: [] };

const NOT_EMPTY = 'the Sector database already holds users or bookings; import:controlcenter moves a division only into an empty one';

/** Reads, checks and (unless a dry run) writes; throws ControlCenterError with one line. */
export async function importControlCenter(imports: Imports, url: string, options: ControlCenterOptions = {}): Promise<ControlCenterPlan> {
  if (await imports.holdsDivisionData()) throw new ControlCenterError(NOT_EMPTY);
  const plan = planControlCenterImport(await readControlCenter(url, options.prefix ?? ''));
  try {
    if (options.dryRun) {
      imports.check(plan.doc);
      return plan;
    }
    const counts = Object.fromEntries(
      Object.entries(plan.report).map(([k, r]) => [k, { read: r.read, imported: r.imported, skipped: r.skipped.length }]),
    );
    // Bookings, by far the most rows, are checked and written in slices within the same transaction,
    // so a large division's never all stand in memory in three forms at once.
    const { bookings = [], ...rest } = plan.doc;
    const parsed = parseImport(rest);
    plan.doc = {};
    await imports.apply(parsed, {
      intoEmptyDatabase: true,
      history: true,
      source: 'controlcenter',
      auditExtra: { bookings: bookings.length, controlcenter_version: plan.version, controlcenter: counts },
      alsoWrite: async (w) => {
        while (bookings.length > 0) {
          const slice = parseImport({ bookings: bookings.splice(0, BOOKING_SLICE) }).bookings;
          await w.repos.import.apply({ ...NOTHING, bookings: slice }, w.at, false);
        }
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
  }
}
