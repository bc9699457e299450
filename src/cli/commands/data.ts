import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { DatabaseNotEmptyError, ImportError, runImport, type ImportSummary } from '../../import/index.js';
import { hasDivisionData } from '../../repositories/importer.js';
import { importRecording } from '../../services/booking-changes.js';
import { CliError, withServices } from '../context.js';

function describe(summary: ImportSummary): string {
  return Object.entries(summary)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

async function importFile(file: string): Promise<void> {
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
      const now = services.clock();
      const summary = await runImport(services.db, data, now, importRecording(services.recorders, now));
      process.stderr.write(`Imported ${describe(summary) || 'nothing'} from ${file}.\n`);
    } catch (err) {
      if (err instanceof ImportError) throw new CliError(`${file}: ${err.message}; nothing was imported`);
      throw err;
    }
  });
}

/** Seeds the demo division from: a 32-bit number would do, but nine digits are easy to type. */
const MAX_SEED = 999_999_999;

async function seedDemo(opts: { seed: string }): Promise<void> {
  const seed = /^\d{1,9}$/.test(opts.seed) ? Number(opts.seed) : NaN;
  if (!(seed <= MAX_SEED)) throw new CliError(`--seed must be a whole number from 0 to ${MAX_SEED} (got "${opts.seed}")`);
  const notEmpty = 'the database already holds users or bookings; seed:demo only fills an empty database';
  await withServices(async (services) => {
    // Checked again in the import's transaction (below): this only spares building the demo.
    if (await hasDivisionData(services.db.kysely)) throw new CliError(notEmpty);
    // Loaded only for this command: the generator is large and nothing else needs it.
    const { buildDemoDivision } = await import('../../demo/division.js');
    const data = buildDemoDivision({ now: services.clock(), seed });
    try {
      const now = services.clock();
      const summary = await runImport(services.db, data, now, { intoEmptyDatabase: true, ...importRecording(services.recorders, now) });
      process.stderr.write(`Loaded the demo division: ${describe(summary)}.\n`);
    } catch (err) {
      // Another process (a second seed:demo, an import) filled it since the check above.
      if (err instanceof DatabaseNotEmptyError) throw new CliError(`${notEmpty} (another process filled it just now); nothing was loaded`);
      throw err;
    }
  });
}

async function migrate(): Promise<void> {
  const db = openDatabase(loadConfig().databaseUrl);
  try {
    const applied = await migrateToLatest(db);
    process.stderr.write(applied.length > 0 ? `Applied migrations: ${applied.join(', ')}.\n` : 'Database schema is already up to date.\n');
  } finally {
    await db.close();
  }
}

export function registerDataCommands(program: Command): void {
  program
    .command('import')
    .description('Import areas, users, positions, endorsements, roles, trainings and bookings from a JSON file (all or nothing).')
    .argument('<file>', 'JSON file in the import format (see README)')
    .action(importFile);
  program
    .command('seed:demo')
    .description('Load a realistic demo division (positions, controllers, endorsements, trainings, upcoming bookings).')
    .option('--seed <n>', `random seed from 0 to ${MAX_SEED}; the same seed gives the same division`, '1')
    .action(seedDemo);
  program.command('migrate').description('Bring the database schema up to date (also done at every start).').action(migrate);
}
