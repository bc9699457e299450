import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { ImportError, runImport, type ImportSummary } from '../../import/index.js';
import { hasDivisionData } from '../../repositories/importer.js';
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
    data = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  await withServices(async (services) => {
    try {
      const summary = await runImport(services.db, data, services.clock());
      process.stderr.write(`Imported ${describe(summary) || 'nothing'} from ${file}.\n`);
    } catch (err) {
      if (err instanceof ImportError) throw new CliError(`${file}: ${err.message}; nothing was imported`);
      throw err;
    }
  });
}

async function seedDemo(opts: { seed: string }): Promise<void> {
  if (!/^\d{1,9}$/.test(opts.seed)) throw new CliError(`--seed must be a whole number (got "${opts.seed}")`);
  await withServices(async (services) => {
    if (await hasDivisionData(services.db.kysely)) {
      throw new CliError('the database already holds users or bookings; seed:demo only fills an empty database');
    }
    // Loaded only for this command: the generator is large and nothing else needs it.
    const { buildDemoDivision } = await import('../../demo/division.js');
    const data = buildDemoDivision({ now: services.clock(), seed: Number(opts.seed) });
    const summary = await runImport(services.db, data, services.clock());
    process.stderr.write(`Loaded the demo division: ${describe(summary)}.\n`);
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
    .option('--seed <n>', 'random seed; the same seed gives the same division', '1')
    .action(seedDemo);
  program.command('migrate').description('Bring the database schema up to date (also done at every start).').action(migrate);
}


