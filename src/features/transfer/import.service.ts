import { createHash } from 'node:crypto';
import { parseImport } from './import/parse.js';
import { ImportError } from './import/plan.js';
import { recordBookingChanges } from '../bookings/index.js';
import type { ImportPlan } from './import/plan.js';
import type { AuditActor } from '../audit/domain/index.js';
import type { ImportSummary } from './import.repository.js';
import { importChanges } from '../bookings/index.js';
import type { Deps } from '../../app/deps.js';
import type { Write } from '../../app/deps.js';

export { ImportError };
export type { ImportSummary };

/** The database was to be filled empty, and it holds users or bookings: nothing was imported. */
export class DatabaseNotEmptyError extends Error {
  constructor() {
    super('the database already holds users or bookings');
  }
}

export interface ImportOptions {
  /** Import only into a database without users and bookings, checked in the import's own transaction. */
  intoEmptyDatabase?: boolean;
  /** What the audit log names as the import's target (the file name); default "import". */
  source?: string;
  /** Who imports; default the command line. */
  actor?: AuditActor;
  /** More to write in the import's own transaction (a Control Center move's API keys). */
  alsoWrite?: (w: Write) => Promise<void>;
  /** More for the audit entry (a Control Center move's counts). */
  auditExtra?: Record<string, unknown>;
  /** Moved history, not news (§19): no events and no audit entry per booking, only the import's one. */
  history?: boolean;
  /** The bytes of an attached file by its SHA-256 (undefined: not there); without it, a file named is refused. */
  attachmentFile?: (sha256: string) => Promise<Buffer | undefined>;
}

/** `npx sector import`, `seed:demo` and the tests' divisions: an import file's content, all or nothing. */
export class ImportService {
  constructor(private readonly deps: Deps<'writer' | 'repos'>) {}

  /** Validates and applies the content in one transaction, with one `import` audit entry and each booking's event and entry. */
  async run(data: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
    return this.apply(parseImport(data), options);
  }

  /** run() of content already checked (parseImport), so a large document need not stay in memory. */
  async apply(plan: ImportPlan, options: ImportOptions = {}): Promise<ImportSummary> {
    const actor = options.actor ?? { kind: 'cli' };
    await loadAttachments(plan, options.attachmentFile);
    return this.deps.writer.write(async (w) => {
      if (options.intoEmptyDatabase && (await w.repos.divisionData.holdsDataLocked())) throw new DatabaseNotEmptyError();
      const outcome = await w.repos.import.apply(plan, w.at, !options.history);
      if (options.alsoWrite) await options.alsoWrite(w);
      const after = { ...outcome.summary, ...options.auditExtra };
      await w.audit(actor, [{ action: 'import', target: options.source ?? 'import', before: null, after }]);
      if (!options.history) await recordBookingChanges(w, importChanges(outcome.bookings), actor, 'import');
      return outcome.summary;
    });
  }

  /** Validates the content as run() would, writing nothing (a dry run). */
  check(data: unknown): void {
    parseImport(data);
  }

  /** True when the database already holds users or bookings (a demo must not be mixed into real data). */
  holdsDivisionData(): Promise<boolean> {
    return this.deps.repos.divisionData.hasData();
  }

  /** True when the database holds users and every one is among `ids` (the demo division of one seed, and nobody else). */
  holdsOnlyUsers(ids: readonly number[]): Promise<boolean> {
    return this.deps.repos.divisionData.holdsOnlyUsers(ids);
  }
}

/** Reads each attached file the plan names, before the transaction, checking its hash and size. */
async function loadAttachments(plan: ImportPlan, read: ImportOptions['attachmentFile']): Promise<void> {
  for (const t of plan.trainings)
    for (const r of [...(t.reports ?? []), ...(t.examinations ?? [])])
      for (const a of r.attachments ?? []) {
        const bytes = read ? await read(a.sha256) : undefined;
        if (bytes === undefined) throw new ImportError(`${a.path}: its file ${a.sha256} is missing`);
        if (bytes.length !== a.size || createHash('sha256').update(bytes).digest('hex') !== a.sha256)
          throw new ImportError(`${a.path}: the file ${a.sha256} does not hold what its name says (size ${a.size}, that SHA-256)`);
        a.content = bytes;
      }
}
