import type { Command } from 'commander';
import { type EventType, parseEventFilter } from '../events/domain.js';
import { isoMicros } from '../../core/domain/time.js';
import { WebhookError, type WebhookSubscriptionsService } from './subscriptions.service.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { count, print, printJson, printTable, show, tell } from '../../core/cli/output.js';

/** Runs fn with the subscriptions of the configured database; an operator's mistake is one line. */
async function withSubscriptions<T>(withServices: WithServices, fn: (subs: WebhookSubscriptionsService) => Promise<T>): Promise<T> {
  return withServices(async (services) => {
    try {
      return await fn(services.webhooks);
    } catch (err) {
      if (err instanceof WebhookError) throw new CliError(`${err.message}; nothing was changed`);
      throw err;
    }
  });
}

async function add(withServices: WithServices, opts: { url: string; events?: string; json?: boolean }): Promise<void> {
  let events: EventType[] | null = null;
  if (opts.events !== undefined) {
    try {
      events = parseEventFilter(opts.events);
    } catch (err) {
      throw new CliError(`${(err as Error).message}; nothing was changed`);
    }
  }
  await withSubscriptions(withServices, async (subs) => {
    const w = await subs.add(opts.url, events);
    if (opts.json) {
      printJson({ id: w.id, url: w.url, events: w.events, secret: w.secret });
      return;
    }
    tell(show`Added webhook ${w.id} for ${w.url} (${w.events === null ? 'every event type' : w.events.join(', ')}).`);
    tell('The signing secret is shown once; store it now (verify deliveries with it, see docs/events.md):');
    print(w.secret);
  });
}

async function list(withServices: WithServices, opts: { json?: boolean }): Promise<void> {
  await withSubscriptions(withServices, async (subs) => {
    const hooks = (await subs.list()).map((w) => ({
      id: w.id,
      url: w.url,
      events: w.events,
      status: w.removed_at !== null ? 'removed' : w.disabled_at !== null ? 'disabled' : 'active',
      created_at: isoMicros(w.created_at),
      removed_at: w.removed_at === null ? null : isoMicros(w.removed_at),
      disabled_at: w.disabled_at === null ? null : isoMicros(w.disabled_at),
      disabled_reason: w.disabled_reason,
    }));
    if (opts.json) return printJson(hooks);
    if (hooks.length === 0) return tell('No webhooks yet. Add one with: npx sector webhook:add --url URL');
    printTable([
      ['ID', 'URL', 'EVENTS', 'STATUS', 'CREATED', 'DISABLED'],
      ...hooks.map((w) => [
        w.id,
        w.url,
        w.events?.join(',') ?? 'all',
        w.status,
        w.created_at.slice(0, 16),
        w.disabled_at === null ? '' : `${w.disabled_at.slice(0, 16)}: ${w.disabled_reason ?? ''}`,
      ]),
    ]);
  });
}

async function remove(withServices: WithServices, id: string): Promise<void> {
  await withSubscriptions(withServices, async (subs) => {
    const w = await subs.remove(id);
    tell(show`Removed webhook ${w.id} (${w.url}); events committed from now on are not delivered to it.`);
  });
}

async function enable(withServices: WithServices, id: string): Promise<void> {
  await withSubscriptions(withServices, async (subs) => {
    const w = await subs.enable(id);
    tell(show`Enabled webhook ${w.id} (${w.url}); events committed from now on are delivered to it.`);
  });
}

async function deliveries(withServices: WithServices, id: string, opts: { json?: boolean }): Promise<void> {
  await withSubscriptions(withServices, async (subs) => {
    const attempts = (await subs.deliveries(id)).map((a) => ({
      event_id: a.event_id,
      type: a.event_type,
      attempt: a.attempt,
      status: a.status_code,
      error: a.error,
      at: isoMicros(a.at),
      duration_ms: a.duration_ms,
    }));
    if (opts.json) return printJson(attempts);
    if (attempts.length === 0) return tell(show`No delivery attempts to ${id} yet.`);
    printTable([
      ['EVENT', 'TYPE', 'ATTEMPT', 'RESULT', 'AT', 'MS'],
      ...attempts.map((a) => [
        a.event_id,
        a.type,
        String(a.attempt),
        a.error ?? String(a.status),
        a.at.slice(0, 19),
        String(a.duration_ms),
      ]),
    ]);
  });
}

async function redeliver(withServices: WithServices, eventId: string, opts: { to?: string }): Promise<void> {
  await withSubscriptions(withServices, async (subs) => {
    const queued = await subs.redeliver(eventId, opts.to ?? null);
    if (queued === 0) throw new CliError(`no active webhook subscription takes event ${eventId}; nothing was queued`);
    tell(show`Queued event ${eventId} for delivery to ${count(queued, 'webhook subscription')}.`);
  });
}

export function registerWebhookCommands(program: Command, withServices: WithServices): void {
  program
    .command('webhook:add')
    .description('Subscribe a URL to booking events (signed, retried; see docs/events.md). Prints the signing secret once.')
    .requiredOption('--url <url>', 'http: or https: URL that receives POSTs')
    .option('--events <types>', 'comma-separated event types (default: all), e.g. booking.created,booking.deleted')
    .option('--json', 'print one JSON line {"id","url","events","secret"} on stdout')
    .action(add.bind(null, withServices));
  program
    .command('webhook:list')
    .description('List webhook subscriptions (secrets are never shown).')
    .option('--json', 'print JSON')
    .action(list.bind(null, withServices));
  program
    .command('webhook:remove')
    .description('Remove a webhook subscription; later events are not delivered to it.')
    .argument('<id>')
    .action(remove.bind(null, withServices));
  program
    .command('webhook:enable')
    .description('Turn a disabled webhook subscription back on, for events committed from now on.')
    .argument('<id>')
    .action(enable.bind(null, withServices));
  program
    .command('webhook:deliveries')
    .description('Recent delivery attempts of a subscription: event, type, attempt, status code or error, time.')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(deliveries.bind(null, withServices));
  program
    .command('webhook:redeliver')
    .description('Deliver an event again (to every subscription taking its type, or only --to one).')
    .argument('<event-id>')
    .option('--to <id>', 'only this subscription')
    .action(redeliver.bind(null, withServices));
}
