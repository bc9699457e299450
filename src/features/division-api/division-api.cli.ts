import type { Command } from 'commander';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { print, printJson, printTable, tell } from '../../core/cli/output.js';
import type { DivisionRequestView } from './division-api.service.js';
import { lastSyncLines } from './division-sync.cli.js';

const OFF = "The division's API is off: DIVISION_API is not set here, so nothing is sent to the hub (see docs/division-api.md).";

async function status(withServices: WithServices, opts: { json?: boolean }): Promise<void> {
  await withServices(async (services) => {
    const hub = services.divisionApi;
    const { pending, refused } = hub ? await hub.status() : { pending: [] as DivisionRequestView[], refused: [] as DivisionRequestView[] };
    const lastSync = (await services.divisionSync?.last()) ?? null;
    if (opts.json) {
      if (!hub) tell(OFF);
      printJson({ pending, refused, last_sync: lastSync });
      return;
    }
    if (!hub) return print(OFF);
    for (const line of lastSyncLines(lastSync)) print(line);
    if (pending.length + refused.length === 0) return print('Nothing pending for the hub: every change has been sent.');
    printTable([
      ['ID', 'STATE', 'REQUEST', 'ABOUT', 'ATTEMPTS', 'ERROR'],
      ...[...pending.map((r) => ({ ...r, state: 'pending' })), ...refused.map((r) => ({ ...r, state: 'refused' }))].map((r) => [
        String(r.id),
        r.state,
        `${r.method} ${r.path}`,
        r.about,
        String(r.attempts),
        r.error ?? '-',
      ]),
    ]);
    print(`${pending.length} pending, ${refused.length} refused`);
    if (refused.length)
      tell(
        "Refused requests wait: fix the cause (the hub's message), then `npx sector division:retry <id>`, or drop one with `division:dismiss <id>`.",
      );
  });
}

function idOf(ref: string): number {
  if (!/^[1-9]\d{0,14}$/.test(ref)) throw new CliError(`the request id must be a positive whole number (got "${ref}")`);
  return Number(ref);
}

export function registerDivisionApiCommands(program: Command, withServices: WithServices): void {
  program
    .command('division:status')
    .description("List requests to the division's hub that are pending or were refused, and the last reconcile.")
    .option('--json', 'print one JSON object on stdout')
    .action(status.bind(null, withServices));
  program
    .command('division:retry')
    .description('Send a request the hub refused once more (after fixing the cause).')
    .argument('<id>')
    .action(async (ref: string) => {
      const id = idOf(ref);
      await withServices(async ({ divisionApi }) => {
        if (!divisionApi) throw new CliError(OFF);
        await divisionApi.retry(id);
        tell(`Request ${id} will be sent to the hub again by the running server.`);
      });
    });
  program
    .command('division:dismiss')
    .description('Drop a request to the hub: it is never sent, and what it held back may go.')
    .argument('<id>')
    .action(async (ref: string) => {
      const id = idOf(ref);
      await withServices(async ({ divisionApi }) => {
        if (!divisionApi) throw new CliError(OFF);
        await divisionApi.dismiss(id);
        tell(`Request ${id} dropped.`);
      });
    });
}
