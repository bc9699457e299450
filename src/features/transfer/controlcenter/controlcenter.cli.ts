// `npx sector import:controlcenter mysql://…`: a Control Center division moved in one command (§19).
import type { Command } from 'commander';
import { ControlCenterError, importControlCenter, type ControlCenterPlan } from './import.service.js';
import type { WithServices } from '../../../app/feature.js';
import { CliError } from '../../../core/cli/errors.js';
import { print, printJson, show } from '../../../core/cli/output.js';

interface Options {
  prefix?: string;
  dryRun?: boolean;
  json?: boolean;
  files?: string;
}

function reportLines(plan: ControlCenterPlan, dryRun: boolean): string[] {
  const lines = [show`Control Center ${plan.version}: ${dryRun ? 'dry run, nothing was written' : 'moved in one transaction'}.`];
  for (const [kind, r] of Object.entries(plan.report)) {
    lines.push(show`${kind}: ${r.read} read, ${r.imported} imported, ${r.skipped.length} skipped`);
    for (const s of r.skipped) lines.push(show`  skipped ${s.row}: ${s.reason}`);
    for (const c of r.changed) lines.push(show`  changed ${c.row}: ${c.reason}`);
  }
  const env = Object.entries(plan.settings);
  if (env.length > 0) {
    lines.push("Settings found (set them in Sector's environment):");
    for (const [k, v] of env) lines.push(show`  ${k}=${v}`);
  }
  return lines;
}

async function importFromControlCenter(withServices: WithServices, url: string, opts: Options): Promise<void> {
  await withServices(async (services) => {
    try {
      const plan = await importControlCenter(services.imports, url, { prefix: opts.prefix, dryRun: opts.dryRun, files: opts.files });
      if (opts.json) printJson({ version: plan.version, dry_run: Boolean(opts.dryRun), report: plan.report, settings: plan.settings });
      else for (const line of reportLines(plan, Boolean(opts.dryRun))) print(line);
    } catch (err) {
      if (err instanceof ControlCenterError) throw new CliError(err.message);
      throw err;
    }
  });
}

export function registerControlCenterCommand(program: Command, withServices: WithServices): void {
  program
    .command('import:controlcenter')
    .description('Move a Control Center division (6.x or 7.x, MySQL/MariaDB) into an empty Sector database, all or nothing.')
    .argument('<mysql-url>', 'mysql://user:password@host:port/database')
    .option('--prefix <prefix>', "Control Center's DB_TABLE_PREFIX")
    .option('--dry-run', 'read and check everything, print the report, write nothing')
    .option('--json', 'print the report as one JSON object')
    .option('--files <dir>', "Control Center's storage folder (storage/app): moves the files of reports and examinations")
    .action(importFromControlCenter.bind(null, withServices));
}
