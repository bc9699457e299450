import type { Command } from 'commander';
import { isoMicros } from '../../core/domain/time.js';
import type { ActivityExplanation } from './activity.service.js';
import { BackfillError } from './backfill.service.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { count, print, printJson, printTable, show, tell } from '../../core/cli/output.js';

const WHY: Record<ActivityExplanation['reason'], string> = {
  hours: 'enough hours',
  grace: 'grace from import',
  below: 'below the requirement',
  imported: 'as imported (ACTIVITY_HOURS not set)',
};

function parseCid(ref: string | undefined): number | null {
  if (ref === undefined) return null;
  if (!/^[1-9]\d{0,14}$/.test(ref)) throw new CliError(`--cid must be a positive whole number (got "${ref}")`);
  return Number(ref);
}

async function activity(withServices: WithServices, opts: { cid?: string; json?: boolean }): Promise<void> {
  const cid = parseCid(opts.cid);
  await withServices(async (services) => {
    const rows = await services.activity.explain(cid);
    if (services.config.activity.hours === null) {
      tell('ACTIVITY_HOURS is not set: activity is not computed, it stays as imported.');
    }
    if (opts.json) {
      const out = rows.map((r) => ({
        ...r,
        period_start: r.period_start === null ? null : isoMicros(r.period_start),
        grace_until: r.grace_until === null ? null : isoMicros(r.grace_until),
      }));
      printJson(out);
      return;
    }
    if (rows.length === 0) {
      print(cid === null ? 'No user has sessions or activity yet.' : `User ${cid} has no sessions or activity.`);
      return;
    }
    printTable([
      ['CID', 'AREA', 'HOURS', 'REQUIRED', 'GRACE UNTIL', 'ACTIVE', 'WHY'],
      ...rows.map((r) => [
        String(r.cid),
        r.area,
        r.hours.toFixed(2),
        r.required_hours === null ? '-' : String(r.required_hours),
        r.grace_until === null ? '-' : isoMicros(r.grace_until).slice(0, 10),
        r.active ? 'yes' : 'no',
        `${WHY[r.reason]}${r.active !== r.listed ? ' (the users list follows at the next recompute)' : ''}`,
      ]),
    ]);
  });
}

async function backfill(withServices: WithServices, opts: { cid?: string }): Promise<void> {
  const cid = parseCid(opts.cid);
  await withServices(async (services) => {
    const { config } = services;
    let result;
    try {
      result = await services.backfill.run(cid, (line) => tell(show`${line}`));
    } catch (err) {
      if (err instanceof BackfillError) throw new CliError(err.message);
      throw err;
    }
    const changed = await services.activity.recompute(result.done);
    print(
      `Read the history of ${count(result.done.length, 'member')} in ${count(result.requests, 'request')}: ${count(result.added, 'session')} added` +
        (config.activity.hours === null ? '.' : `, activity changed for ${count(changed, 'user area')}.`),
    );
  });
}

export function registerActivityCommands(program: Command, withServices: WithServices): void {
  program
    .command('activity')
    .description('Show per user and area the hours controlled, the requirement, the grace and whether the user is ATC-active.')
    .option('--cid <cid>', 'only this user')
    .option('--json', 'print one JSON array on stdout')
    .action(activity.bind(null, withServices));
  program
    .command('activity:backfill')
    .description("Read members' past sessions from the network's ATC history (10 requests a minute; resumes where it stopped).")
    .option('--cid <cid>', 'only this user (read again from the start)')
    .action(backfill.bind(null, withServices));
}
