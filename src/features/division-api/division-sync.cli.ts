import type { Command } from 'commander';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { count, print, printJson } from '../../core/cli/output.js';
import { DivisionSyncError, type DivisionSyncRecord, type DivisionSyncReport } from './division-sync.service.js';

export const DIVISION_API_UNSET = "DIVISION_API is not set: there is no division's hub to reconcile with (see docs/division-api.md)";

const list = (items: ReadonlyArray<number | string>) =>
  items.length === 0 ? '' : `: ${items.slice(0, 20).join(', ')}${items.length > 20 ? ', …' : ''}`;
const tier = (t: { tier: number; user_cid: number; position: string }) => `${t.user_cid} T${t.tier} ${t.position}`;

/** The lines of what a run added and removed (`verb`: "would be " for a dry run). */
export function syncLines(r: Pick<DivisionSyncRecord, 'roster' | 'tiers'>, verb = ''): string[] {
  return [
    `roster: ${r.roster.added.length} ${verb}added${list(r.roster.added)}`,
    `roster: ${r.roster.removed.length} ${verb}removed${list(r.roster.removed)}`,
    `tier endorsements: ${r.tiers.added.length} ${verb}added${list(r.tiers.added.map(tier))}`,
    `tier endorsements: ${r.tiers.removed.length} ${verb}removed${list(r.tiers.removed.map((t) => `${tier(t)} (#${t.id})`))}`,
  ];
}

/** division:status's lines about the last reconcile. */
export function lastSyncLines(r: DivisionSyncRecord | null): string[] {
  if (r === null) return ['Last sync: never (npx sector division:sync)'];
  const state =
    r.error !== null ? `stopped: ${r.error}` : r.finished_at === null ? 'under way, or its process stopped' : `finished ${r.finished_at}`;
  return [`Last sync #${r.id}: started ${r.started_at}${r.forced ? ' (--force)' : ''}, ${state}`, ...syncLines(r).map((l) => `  ${l}`)];
}

function printReport(r: DivisionSyncReport): void {
  print(
    `The hub held ${count(r.hub.roster, 'roster member')} and ${count(r.hub.tiers, 'tier endorsement')}; Sector wants ${r.wanted.roster} and ${r.wanted.tiers}${r.dry_run ? ' (dry run: nothing changed)' : ''}.`,
  );
  for (const line of syncLines(r, r.dry_run ? 'would be ' : '')) print(line);
  if (r.skipped.length) print(`left as they are: ${r.skipped.length}${list(r.skipped.map((s) => `${s.user_cid} (${s.reason})`))}`);
}

async function divisionSync(withServices: WithServices, opts: { dryRun?: boolean; force?: boolean; json?: boolean }): Promise<void> {
  await withServices(async ({ divisionSync }) => {
    if (!divisionSync) throw new CliError(DIVISION_API_UNSET);
    try {
      const report = await divisionSync.sync({ dryRun: Boolean(opts.dryRun), force: Boolean(opts.force) });
      if (opts.json) printJson(report);
      else printReport(report);
    } catch (err) {
      if (!(err instanceof DivisionSyncError)) throw err;
      // Stopped by the hub midway: what was done before it is printed (and recorded) first.
      if (err.report && opts.json) printJson(err.report);
      else if (err.report) printReport(err.report);
      throw new CliError(err.message);
    }
  });
}

export function registerDivisionSyncCommands(program: Command, withServices: WithServices): void {
  program
    .command('division:sync')
    .description("Make the division's hub hold exactly Sector's roster and tier endorsements.")
    .option('--dry-run', 'show what would change, change nothing')
    .option('--force', 'apply a run that removes more than half of the hub roster or tier endorsements')
    .option('--json', 'print one JSON object on stdout')
    .action(divisionSync.bind(null, withServices));
}
