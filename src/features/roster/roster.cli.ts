import type { Command } from 'commander';
import { describeRosterError } from './roster-sync.service.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { count, print, printJson } from '../../core/cli/output.js';

async function rosterSync(withServices: WithServices, opts: { dryRun?: boolean; force?: boolean; json?: boolean }): Promise<void> {
  await withServices(async (services) => {
    let result;
    try {
      result = await services.roster.sync({ dryRun: Boolean(opts.dryRun), force: Boolean(opts.force) });
    } catch (err) {
      const line = describeRosterError(err);
      if (line !== null) throw new CliError(line);
      throw err;
    }
    if (opts.json) {
      printJson(result);
      return;
    }
    const list = (items: ReadonlyArray<number | string>) =>
      items.length === 0 ? '' : `: ${items.slice(0, 20).join(', ')}${items.length > 20 ? ', …' : ''}`;
    const verb = result.dry_run ? 'would be ' : '';
    print(`Roster of ${count(result.roster, 'member')} read from the network${result.dry_run ? ' (dry run: nothing changed)' : ''}.`);
    print(`${result.created.length} ${verb}created${list(result.created)}`);
    print(`${result.updated.length} ${verb}updated${list(result.updated)}`);
    print(`${result.gone.length} gone from the division${list(result.gone)}`);
    print(`${result.unchanged} unchanged`);
    print(`${result.skipped.length} skipped${list(result.skipped.map((m) => `${m.id} (${m.reason})`))}`);
  });
}

export function registerRosterCommands(program: Command, withServices: WithServices): void {
  program
    .command('roster:sync')
    .description("Bring the users up to date with the network's roster of the division (CORE_API_KEY).")
    .option('--dry-run', 'show what would change, change nothing')
    .option('--force', 'apply a roster that takes away more than half of the members')
    .option('--json', 'print one JSON object on stdout')
    .action(rosterSync.bind(null, withServices));
}
