import type { Command } from 'commander';
import { KeyNameTakenError } from './api-keys.service.js';
import type { ApiKeyRow, ApiKeyScope } from '../../core/db/schema.js';
import { isoMicros } from '../../core/domain/time.js';
import type { AppServices } from '../../app/services.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { print, printJson, printTable, show, tell } from '../../core/cli/output.js';

interface CreateOptions {
  name?: string;
  edit?: boolean;
  readOnly?: boolean;
  variant?: string;
  compat?: string;
  expiresIn?: string;
  json?: boolean;
}

const NAME_RE = /^[\p{L}\p{N} ._@:/()-]{1,100}$/u;
/** Key ids are 16 lower-case hex digits; a name like that could be taken for another key's id. */
const KEY_ID_RE = /^[0-9a-f]{16}$/;

/** "90d", "12h", "30m" -> milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,6})([dhm])$/.exec(text.trim());
  if (!m) throw new CliError(`--expires-in must look like 90d, 12h or 30m (got "${text}")`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  if (Number(m[1]) === 0) throw new CliError('--expires-in must be more than zero');
  return Number(m[1]) * unit;
}

/** Why a (trimmed) key name cannot be used, or null when it can. */
function nameProblem(name: string): string | null {
  if (!NAME_RE.test(name)) return 'the key name must be 1-100 letters, digits, spaces or . _ @ : / ( ) -';
  if (KEY_ID_RE.test(name)) return 'the key name must not look like a key id (16 hex digits): apikey:revoke takes either';
  return null;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  const problem = nameProblem(trimmed);
  if (problem !== null) throw new CliError(problem);
  return trimmed;
}

async function create(withServices: WithServices, opts: CreateOptions): Promise<void> {
  if (opts.edit && opts.readOnly) throw new CliError('choose one of --edit and --read-only');
  if (opts.variant !== undefined && opts.variant !== 'newer' && opts.variant !== 'older') {
    throw new CliError(`--variant must be newer or older (got "${opts.variant}")`);
  }
  if (opts.compat !== undefined && opts.compat !== 'none' && opts.compat !== 'controlcenter') {
    throw new CliError(`--compat must be none or controlcenter (got "${opts.compat}")`);
  }
  const ttl = opts.expiresIn === undefined ? null : parseDuration(opts.expiresIn);

  let scope: ApiKeyScope;
  let name: string;
  if (opts.name !== undefined) {
    name = checkName(opts.name);
    if (!opts.edit && !opts.readOnly) throw new CliError('with --name, say --edit or --read-only');
    scope = opts.edit ? 'edit' : 'read';
  } else {
    if (!process.stdin.isTTY) throw new CliError('no terminal to ask on: pass --name and --edit or --read-only');
    // Interactive, as the specification describes: edit rights first, then a name.
    // Prompts go to stderr so that stdout carries only the result.
    const io = { output: process.stderr };
    const { confirm, input } = await import('@inquirer/prompts');
    const edit =
      opts.edit ?? (opts.readOnly ? false : await confirm({ message: 'Should the API key have edit rights?', default: false }, io));
    scope = edit ? 'edit' : 'read';
    name = checkName(
      await input({ message: 'Name of the API key (who or what uses it):', validate: (v) => nameProblem(v.trim()) ?? true }, io),
    );
  }

  await withServices(async (services) => {
    try {
      const { key, token } = await services.keys.create({
        name,
        scope,
        variant: (opts.variant as 'newer' | 'older' | undefined) ?? null,
        compat: (opts.compat as 'none' | 'controlcenter' | undefined) ?? null,
        expiresAt: ttl === null ? null : services.clock() + ttl,
      });
      if (opts.json) {
        printJson({ id: key.id, name: key.name, scope: key.scope, token });
      } else {
        tell(show`Created ${scope === 'edit' ? 'an edit' : 'a read-only'} API key "${key.name}" (id ${key.id}).`);
        tell('The token is shown once; store it now. Send it as: Authorization: Bearer <token>');
        print(token);
      }
    } catch (err) {
      if (err instanceof KeyNameTakenError) throw new CliError(err.message);
      throw err;
    }
  });
}

async function list(withServices: WithServices, opts: { json?: boolean }): Promise<void> {
  await withServices(async (services) => {
    const now = services.clock();
    const keys = (await services.keys.list()).map((k) => ({
      id: k.id,
      name: k.name,
      scope: k.scope,
      variant: k.variant ?? services.config.apiVariant,
      compat: k.compat ?? services.config.apiCompat,
      status: k.revoked_at !== null ? 'revoked' : k.expires_at !== null && k.expires_at <= now ? 'expired' : 'active',
      created_at: isoMicros(k.created_at),
      last_used_at: k.last_used_at === null ? null : isoMicros(k.last_used_at),
      expires_at: k.expires_at === null ? null : isoMicros(k.expires_at),
    }));
    if (opts.json) {
      printJson(keys);
      return;
    }
    if (keys.length === 0) {
      tell('No API keys yet. Create one with: npx sector create:apikey');
      return;
    }
    printTable([
      ['ID', 'NAME', 'SCOPE', 'VARIANT', 'COMPAT', 'STATUS', 'CREATED', 'LAST USED', 'EXPIRES'],
      ...keys.map((k) => [
        k.id,
        k.name,
        k.scope,
        k.variant,
        k.compat,
        k.status,
        k.created_at.slice(0, 16),
        k.last_used_at?.slice(0, 16) ?? '-',
        k.expires_at?.slice(0, 16) ?? '-',
      ]),
    ]);
  });
}

/**
 * The one key ref names. An id and a name are both unique, but a name (from before names that
 * look like ids were refused) may equal another key's id: then guessing would revoke the wrong key.
 */
async function keyByRef(services: AppServices, ref: string): Promise<ApiKeyRow> {
  const { byId, byName } = await services.keys.findByIdAndByName(ref);
  if (byId && byName && byId.id !== byName.id) {
    throw new CliError(
      `"${ref}" is the id of API key "${byId.name}" and the name of API key ${byName.id}; ` +
        `say "${byId.name}" for the one or ${byName.id} for the other; nothing was revoked`,
    );
  }
  const key = byId ?? byName;
  if (!key) throw new CliError(`no API key with id or name "${ref}"`);
  return key;
}

async function revoke(withServices: WithServices, ref: string): Promise<void> {
  await withServices(async (services) => {
    const key = await keyByRef(services, ref);
    const already = new CliError(`API key "${key.name}" (id ${key.id}) is already revoked`);
    if (key.revoked_at !== null) throw already;
    // Revoked by another command meanwhile: the write finds it so and changes nothing.
    if (!(await services.keys.revoke(key.id))) throw already;
    tell(show`Revoked API key "${key.name}" (id ${key.id}); it is refused from the next request on.`);
  });
}

export function registerApiKeyCommands(program: Command, withServices: WithServices): void {
  program
    .command('create:apikey')
    .description('Create an API key. Without --name it asks (edit rights yes/no, then a name).')
    .option('--name <name>', 'name of the key (who or what uses it); skips the questions')
    .option('--edit', 'the key may create, update and delete bookings')
    .option('--read-only', 'the key may only read')
    .option('--variant <variant>', 'pin the API variant for this key: newer or older')
    .option('--compat <profile>', 'response profile for this key: none or controlcenter')
    .option('--expires-in <duration>', 'expire the key after a duration such as 90d, 12h or 30m')
    .option('--json', 'print one JSON line {"id","name","scope","token"} on stdout')
    .action(create.bind(null, withServices));
  program
    .command('apikey:list')
    .description('List API keys (tokens are never shown).')
    .option('--json', 'print JSON')
    .action(list.bind(null, withServices));
  program
    .command('apikey:revoke')
    .description('Revoke an API key by id or name; takes effect on the next request.')
    .argument('<id-or-name>')
    .action(revoke.bind(null, withServices));
}
