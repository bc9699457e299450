import type { Command } from 'commander';
import { actorFilter, auditJsonLine, auditTable, bookingTarget } from './domain/index.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { print, tell } from '../../core/cli/output.js';
import { printable } from '../../core/domain/printable.js';

interface AuditOptions {
  booking?: string;
  actor?: string;
  since?: string;
  limit?: string;
  json?: boolean;
}

/** The human form shows this many entries unless --limit says otherwise; --json shows all. */
const DEFAULT_HUMAN_LIMIT = 100;
const MAX_LIMIT = 1_000_000;

/** The terminal's width; piped, COLUMNS when set, else a width most terminals have. */
function terminalWidth(): number {
  if (process.stdout.isTTY && process.stdout.columns > 0) return process.stdout.columns;
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns >= 40 && columns <= 10_000 ? columns : 120;
}

async function audit(withServices: WithServices, opts: AuditOptions): Promise<void> {
  let target: string | undefined;
  if (opts.booking !== undefined) {
    if (!/^\d{1,10}$/.test(opts.booking) || Number(opts.booking) < 1 || Number(opts.booking) > 2_147_483_647) {
      throw new CliError(`--booking must be a booking id, a whole number from 1 (got "${opts.booking}")`);
    }
    target = bookingTarget(Number(opts.booking));
  }
  let actor: string | undefined;
  if (opts.actor !== undefined) {
    actor = actorFilter(opts.actor) ?? undefined;
    if (actor === undefined)
      throw new CliError(`--actor must be a CID, member:<cid>, key:<id>, cli, roster or system (got "${opts.actor}")`);
  }
  let since: number | undefined;
  if (opts.since !== undefined) {
    const ms = parseIsoInstant(opts.since);
    if (ms === null) throw new CliError(`--since must be an ISO 8601 time such as 2026-01-31T00:00:00Z (got "${opts.since}")`);
    since = ms;
  }
  let limit: number | undefined = opts.json ? undefined : DEFAULT_HUMAN_LIMIT;
  if (opts.limit !== undefined) {
    if (!/^\d{1,7}$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > MAX_LIMIT) {
      throw new CliError(`--limit must be a whole number from 1 to ${MAX_LIMIT} (got "${opts.limit}")`);
    }
    limit = Number(opts.limit);
  }
  await withServices(async (services) => {
    const entries = await services.audit.read({
      ...(target ? { target } : {}),
      ...(actor ? { actor } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(limit ? { limit } : {}),
    });
    if (opts.json) {
      for (const e of entries) print(printable(auditJsonLine(e)));
      return;
    }
    if (entries.length === 0) {
      tell('No audit entries match.');
      return;
    }
    print(auditTable(entries, terminalWidth()).join('\n'));
    if (limit !== undefined && entries.length === limit) tell(`Showing the newest ${limit}; use --limit N or --json for more.`);
  });
}

export function registerAuditCommand(program: Command, withServices: WithServices): void {
  program
    .command('audit')
    .description('Show the audit log (who changed what, when), newest first.')
    .option('--booking <id>', 'only the entries of this booking')
    .option('--actor <who>', 'only the changes of this actor: a CID (a member), key:<id>, cli, roster or system')
    .option('--since <iso>', 'only entries at or after this time, e.g. 2026-01-31T00:00:00Z')
    .option('--limit <n>', `at most this many entries (default ${DEFAULT_HUMAN_LIMIT} in the table, all with --json)`)
    .option('--json', 'one JSON object per line: {"at","actor","actor_name","action","target","before","after"}')
    .action(audit.bind(null, withServices));
}
