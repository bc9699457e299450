#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { printable } from '../core/domain/printable.js';
import { describeStartupError } from '../app/runtime.js';
import { VERSION } from '../version.js';
import type { Feature, WithServices } from '../app/feature.js';
import { FEATURES } from '../app/features.js';
import { startServices } from '../app/runtime.js';
import { CliError } from '../core/cli/errors.js';

const program = new Command('sector')
  .description('Sector: control-centre API of an air traffic control division')
  .version(VERSION)
  .configureOutput({
    outputError: (text, write) => write(`sector: ${printable(text.replace(/^error: /, '').trimEnd())} (see npx sector --help)\n`),
  })
  .exitOverride();

/** Runs a command with the configured database, migrated, and closes it afterwards. */
const withServices: WithServices = async (fn) => {
  // A command serves no /metrics: nothing to count.
  const services = await startServices({ ...loadConfig(), metrics: false });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
};

// Every feature's commands (the composition root's list: none can be left out).
for (const feature of FEATURES as readonly Pick<Feature, 'cli'>[])
  for (const register of feature.cli ?? []) register(program, withServices);

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
