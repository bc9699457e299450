import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../core/db/connection.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import { DatabaseNotEmptyError, ImportError, type ImportSummary } from './import.service.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { count, show, tell } from '../../core/cli/output.js';

/** The sections whose name is not their noun's plural with an s: [one, many]. */
const NOUNS: Record<string, [string, string]> = {
  facilities: ['facility', 'facilities'],
  feedback: ['feedback', 'feedback'],
  sweatbox_sessions: ['sweatbox session', 'sweatbox sessions'],
};

function describe(summary: ImportSummary): string {
  return (Object.entries(summary) as Array<[string, number]>)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => (NOUNS[k] ? `${n} ${NOUNS[k][n === 1 ? 0 : 1]}` : count(n, k.slice(0, -1))))
    .join(', ');
}

/** The files an export wrote beside FILE (FILE.attachments/<sha256>). */
const attachmentsBeside = (file: string) => async (sha256: string) =>
  /^[0-9a-f]{64}$/.test(sha256) ? fs.readFile(path.join(`${file}.attachments`, sha256)).catch(() => undefined) : undefined;

async function importFile(withServices: WithServices, file: string): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let data: unknown;
  try {
    // A byte order mark (some editors on Windows write one) is no part of the JSON.
    data = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  await withServices(async (services) => {
    try {
      const summary = await services.imports.run(data, { source: path.basename(file), attachmentFile: attachmentsBeside(file) });
      tell(show`Imported ${describe(summary) || 'nothing'} from ${file}.`);
    } catch (err) {
      if (err instanceof ImportError) throw new CliError(`${file}: ${err.message}; nothing was imported`);
      throw err;
    }
  });
}

/** Seeds the demo division from: a 32-bit number would do, but nine digits are easy to type. */
const MAX_SEED = 999_999_999;

async function seedDemo(withServices: WithServices, opts: { seed: string }): Promise<void> {
  const seed = /^\d{1,9}$/.test(opts.seed) ? Number(opts.seed) : NaN;
  if (!(seed <= MAX_SEED)) throw new CliError(`--seed must be a whole number from 0 to ${MAX_SEED} (got "${opts.seed}")`);
  const notEmpty = 'the database already holds users or bookings; seed:demo only fills an empty database';
  await withServices(async (services) => {
    // Loaded only for this command: the generator is large and nothing else needs it.
    const { buildDemoDivision } = await import('../demo/index.js');
    const data = buildDemoDivision({ now: services.clock(), seed });
    // Run again (a second `npm run demo`), it finds its own division: done, not an error.
    const loaded = async () => {
      if (!(await services.imports.holdsOnlyUsers(data.users.map((u) => u.id)))) return false;
      tell(`The demo division (seed ${seed}) is already loaded; nothing was changed.`);
      return true;
    };
    // Checked again in the import's transaction (below): this only spares loading the demo.
    if (await services.imports.holdsDivisionData()) {
      if (await loaded()) return;
      throw new CliError(notEmpty);
    }
    try {
      const summary = await services.imports.run(data, { intoEmptyDatabase: true, source: 'seed:demo' });
      tell(`Loaded the demo division: ${describe(summary)}.`);
    } catch (err) {
      // Another process (a second seed:demo, an import) filled it since the check above.
      if (err instanceof DatabaseNotEmptyError) {
        if (await loaded()) return;
        throw new CliError(`${notEmpty} (another process filled it just now); nothing was loaded`);
      }
      throw err;
    }
  });
}

/** Each file the export names into DIR, named by its SHA-256 (one already there with that name is kept). */
async function writeAttachments(dir: string, files: readonly string[], read: (sha256: string) => Promise<Buffer | undefined>) {
  if (files.length === 0) return;
  try {
    await fs.mkdir(dir, { recursive: true });
    for (const sha256 of files) {
      const target = path.join(dir, sha256);
      if (
        await fs.stat(target).then(
          (st) => st.isFile(),
          () => false,
        )
      )
        continue;
      const bytes = await read(sha256);
      if (bytes === undefined) throw new CliError(`an attached file (${sha256}) was removed while exporting; run the export again`);
      const temporary = `${target}.${process.pid}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target);
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot write ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Writes the export to FILE (through a temporary file, so a reader never sees half of it) or stdout. */
async function exportData(withServices: WithServices, file: string | undefined): Promise<void> {
  if (file?.trim() === '') throw new CliError('FILE must not be empty: npx sector export [FILE] (stdout without it)');
  if (file === undefined) {
    const { text, files } = await withServices((services) => services.exports.document());
    process.stdout.write(text);
    if (files.length > 0)
      process.stderr.write(`${count(files.length, 'attached file')} not written: give a FILE to write them beside it.\n`);
    return;
  }
  const text = await withServices(async (services) => {
    const doc = await services.exports.document();
    await writeAttachments(`${file}.attachments`, doc.files, (sha256) => services.exports.attachment(sha256));
    return doc.text;
  });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await fs.writeFile(temporary, text, { flag: 'wx' });
    await fs.rename(temporary, file);
  } catch (err) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw new CliError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  tell(show`Exported to ${file} (${Buffer.byteLength(text)} bytes).`);
}

async function migrate(): Promise<void> {
  const db = openDatabase(loadConfig().databaseUrl);
  try {
    const applied = await migrateToLatest(db);
    tell(applied.length > 0 ? `Applied migrations: ${applied.join(', ')}.` : 'Database schema is already up to date.');
  } finally {
    await db.close();
  }
}

export function registerDataCommands(program: Command, withServices: WithServices): void {
  program
    .command('import')
    .description('Import areas, users, positions, endorsements, roles, trainings and bookings from a JSON file (all or nothing).')
    .argument('<file>', 'JSON file in the import format (see README)')
    .action(importFile.bind(null, withServices));
  program
    .command('seed:demo')
    .description('Load a realistic demo division (positions, controllers, endorsements, trainings, upcoming bookings).')
    .option('--seed <n>', `random seed from 0 to ${MAX_SEED}; the same seed gives the same division`, '1')
    .action(seedDemo.bind(null, withServices));
  program
    .command('export')
    .description(
      'Write every user, area, position, endorsement, role, training and booking (deleted ones too) in the import format; import it to restore or move the data.',
    )
    .argument('[file]', 'file to write (replaced if it exists), with the attached files in FILE.attachments/; stdout without it')
    .action(exportData.bind(null, withServices));
  program.command('migrate').description('Bring the database schema up to date (also done at every start).').action(migrate);
}
