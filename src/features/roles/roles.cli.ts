import type { Command } from 'commander';
import { DomainError, ValidationError } from '../../core/domain/errors.js';
import { MAX_CID } from '../../core/domain/limits.js';
import type { AppServices } from '../../app/services.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { printJson, printTable, show, tell } from '../../core/cli/output.js';

/** A refusal of the service as one line (every field's first message), saying that nothing changed. */
async function withRoles<T>(withServices: WithServices, fn: (services: AppServices) => Promise<T>): Promise<T> {
  return withServices(async (services) => {
    try {
      return await fn(services);
    } catch (err) {
      if (err instanceof ValidationError)
        throw new CliError(
          `${Object.values(err.errors)
            .map((m) => m[0])
            .join(' ')} Nothing was changed.`,
        );
      if (err instanceof DomainError) throw new CliError(`${err.message} Nothing was changed.`);
      throw err;
    }
  });
}

function cidOf(text: string): number {
  const cid = /^\d{1,8}$/.test(text) ? Number(text) : NaN;
  if (!(cid >= 1 && cid <= MAX_CID)) throw new CliError(show`${text} is not a CID (a number from 1 to ${MAX_CID}); nothing was changed.`);
  return cid;
}

const where = (area: string | null) => (area === null ? 'division-wide' : `in ${area}`);

export function registerRoleCommands(program: Command, withServices: WithServices): void {
  program
    .command('role:grant')
    .description('Give a user a role in an area, or division-wide without --area (Administrator only)')
    .argument('<cid>', 'the user (they must exist: signed in once, or imported)')
    .argument('<role>', 'Administrator, Moderator, Mentor or Buddy')
    .option('--area <name>', 'the area; omitted: division-wide')
    .action(async (cid: string, role: string, opts: { area?: string }) => {
      const held = await withRoles(withServices, (s) => s.roles.grant(cidOf(cid), role, opts.area ?? null, { kind: 'cli' }));
      tell(show`Granted ${held.role} ${where(held.area)} to ${held.user_id}.`);
    });

  program
    .command('role:revoke')
    .description('Take a role from a user')
    .argument('<cid>', 'the user')
    .argument('<role>', 'Administrator, Moderator, Mentor or Buddy')
    .option('--area <name>', 'the area; omitted: the division-wide role')
    .action(async (cid: string, role: string, opts: { area?: string }) => {
      const held = await withRoles(withServices, (s) => s.roles.revoke(cidOf(cid), role, opts.area ?? null, { kind: 'cli' }));
      tell(show`Revoked ${held.role} ${where(held.area)} from ${held.user_id}.`);
    });

  program
    .command('role:list')
    .description('List who holds which role')
    .option('--json', 'one JSON array of {user_id, role, area} (area null: division-wide)')
    .action(async (opts: { json?: boolean }) => {
      const roles = await withRoles(withServices, (s) => s.roles.list());
      if (opts.json) return printJson(roles);
      if (roles.length === 0)
        return tell('Nobody holds a role yet. Make the first Administrator with: npx sector role:grant <cid> Administrator');
      printTable([['CID', 'ROLE', 'AREA'], ...roles.map((r) => [String(r.user_id), r.role, r.area ?? '(division-wide)'])]);
    });
}
