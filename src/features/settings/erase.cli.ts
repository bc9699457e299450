import type { Command } from 'commander';
import type { WithServices } from '../../app/feature.js';
import { NotFoundError } from '../../core/domain/errors.js';
import { MAX_CID } from '../../core/domain/limits.js';
import { CliError } from '../../core/cli/errors.js';
import { printJson, show, tell } from '../../core/cli/output.js';

/** `user:erase <cid> [--delete] [--yes] [--json]` (contract §24): asks first unless told --yes. */
export function registerEraseCommands(program: Command, withServices: WithServices): void {
  program
    .command('user:erase')
    .description('Pseudonymise a person on request (names, e-mail, settings removed); --delete removes their rows')
    .argument('<cid>', 'the person')
    .option('--delete', 'remove their bookings, trainings, endorsements, roles, feedback and sessions (audit entries stay)')
    .option('--yes', 'do not ask to confirm')
    .option('--json', 'print what was done as one JSON object')
    .action(async (text: string, opts: { delete?: boolean; yes?: boolean; json?: boolean }) => {
      const cid = /^\d{1,8}$/.test(text) ? Number(text) : NaN;
      if (!(cid >= 1 && cid <= MAX_CID))
        throw new CliError(show`${text} is not a CID (a number from 1 to ${MAX_CID}); nothing was changed.`);
      const what = opts.delete ? `delete user ${cid}'s data` : `pseudonymise user ${cid}`;
      if (!opts.yes) {
        if (!process.stdin.isTTY) throw new CliError(`no terminal to ask on: pass --yes to ${what}; nothing was changed.`);
        const { confirm } = await import('@inquirer/prompts');
        // The prompt goes to stderr so that stdout carries only the result.
        if (!(await confirm({ message: `This cannot be undone. Really ${what}?`, default: false }, { output: process.stderr })))
          throw new CliError('Not confirmed; nothing was changed.');
      }
      await withServices(async (services) => {
        try {
          const done = await services.erase.erase(cid, opts.delete ? 'delete' : 'pseudonymise', { kind: 'cli' });
          if (opts.json) return printJson(done);
          tell(
            show`${opts.delete ? 'Deleted the data of' : 'Pseudonymised'} user ${cid}: ${done.trainings_closed} open trainings closed, ${done.roles_revoked} roles revoked, ${done.bookings_cancelled} upcoming bookings cancelled, ${done.events_deleted} stored events and ${done.mails_deleted} mails naming them deleted.`,
          );
        } catch (err) {
          if (err instanceof NotFoundError) throw new CliError(show`There is no user ${cid}; nothing was changed.`);
          throw err;
        }
      });
    });
}
