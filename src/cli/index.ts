#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { printable } from '../core/domain/printable.js';
import { describeStartupError } from '../app/runtime.js';
import { VERSION } from '../version.js';
import { registerApiKeyCommands } from '../features/api-keys/api-keys.cli.js';
import { registerAuditCommand } from '../features/audit/audit.cli.js';
import { registerBackupCommand } from '../features/operations/backup.cli.js';
import { registerControlCenterCommand } from '../features/transfer/controlcenter/controlcenter.cli.js';
import { registerDataCommands } from '../features/transfer/transfer.cli.js';
import { registerWebhookCommands } from '../features/webhooks/webhooks.cli.js';
import { registerNetworkCommands } from '../features/network/network.cli.js';
import { registerRoleCommands } from '../features/staff/roles.cli.js';
import { registerRosterCommands } from '../features/roster/roster.cli.js';
import { registerActivityCommands } from '../features/activity/activity.cli.js';
import { CliError } from './context.js';

const program = new Command('sector')
  .description('Sector: control-centre API of an air traffic control division')
  .version(VERSION)
  .configureOutput({
    outputError: (text, write) => write(`sector: ${printable(text.replace(/^error: /, '').trimEnd())} (see npx sector --help)\n`),
  })
  .exitOverride();

registerApiKeyCommands(program);
registerDataCommands(program);
registerControlCenterCommand(program);
registerWebhookCommands(program);
registerNetworkCommands(program);
registerRosterCommands(program);
registerRoleCommands(program);
registerActivityCommands(program);
registerAuditCommand(program);
registerBackupCommand(program);

/**
 * A reader that goes away early (`npx sector apikey:list | head -1`) closes the pipe, and Node
 * reports the next write as an unhandled EPIPE 'error' event with a stack trace. The reader has
 * what it wanted: that is no failure of the command, so stop quietly with status 0 (a C tool
 * would die of SIGPIPE, status 141, which breaks `| head` under `set -o pipefail`). Stopping
 * undoes nothing half-way: every command writes only after its change is committed. A failing
 * command still exits non-zero: fail() exits before its stderr write's error event arrives.
 */
function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
exitQuietlyOnClosedPipe(process.stdout);
exitQuietlyOnClosedPipe(process.stderr);

function fail(message: string): never {
  // One line, whatever it quotes (a file name, the JSON parser's excerpt of a broken file).
  process.stderr.write(`sector: ${printable(message)}\n`);
  process.exit(1);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; their text is already printed.
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  if (err instanceof CliError) fail(err.message);
  if (err instanceof ConfigError) fail(err.message.replace(/\n\s*/g, ' '));
  if ((err as Error | null | undefined)?.name === 'ExitPromptError') fail('cancelled; nothing was created');
  fail(describeStartupError(err));
}
