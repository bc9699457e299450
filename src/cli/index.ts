#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { describeStartupError } from '../runtime.js';
import { VERSION } from '../version.js';
import { registerApiKeyCommands } from './commands/apikeys.js';
import { registerDataCommands } from './commands/data.js';
import { CliError } from './context.js';

const program = new Command('sector')
  .description('Sector: control-centre API of an air traffic control division')
  .version(VERSION)
  .configureOutput({ outputError: (text, write) => write(`sector: ${text.replace(/^error: /, '').trimEnd()} (see npx sector --help)\n`) })
  .exitOverride();

registerApiKeyCommands(program);
registerDataCommands(program);

function fail(message: string): never {
  process.stderr.write(`sector: ${message}\n`);
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
  if ((err as Error)?.name === 'ExitPromptError') fail('cancelled; nothing was created');
  fail(describeStartupError(err));
}
