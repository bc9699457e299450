import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { BackupError, backupSqlite } from '../../core/db/backup.js';
import { CliError } from '../../core/cli/errors.js';
import { count, show } from '../../core/cli/output.js';

export const PG_DUMP_HINT = 'backup works on SQLite; for PostgreSQL use pg_dump -Fc (see docs/operations.md)';

async function backup(file: string, opts: { force?: boolean }): Promise<void> {
  if (file.trim() === '') throw new CliError('FILE is required: npx sector backup FILE [--force]');
  const url = loadConfig().databaseUrl;
  if (!url.startsWith('sqlite:')) throw new CliError(PG_DUMP_HINT);
  const source = url.slice('sqlite:'.length);
  if (source === ':memory:') throw new CliError('DATABASE_URL is sqlite::memory:, which has nothing to back up');
  try {
    const r = await backupSqlite(source, file, opts.force === true);
    const bookings = `${count(r.bookings, 'booking')} (${r.deleted} deleted)`;
    process.stdout.write(show`Backed up ${source} to ${file}: ${r.bytes} bytes, ${bookings}, integrity check ok.\n`);
  } catch (err) {
    if (err instanceof BackupError) throw new CliError(`${err.message}; nothing was written to ${file}`);
    throw err;
  }
}

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description(
      'Copy the SQLite database to FILE while the server runs (SQLite online backup), then check the copy. PostgreSQL: use pg_dump.',
    )
    .argument('<file>', 'where to write the copy; must not exist unless --force')
    .option(
      '--force',
      'replace FILE if it is an existing regular file (only once the new copy has passed its check); never the live database, a directory or a device',
    )
    .action(backup);
}
