import type { Command } from 'commander';
import { isoMicros } from '../../core/domain/time.js';
import type { OpenPush } from './pushes.repository.js';
import { withoutSecrets } from '../../core/http-client.js';
import type { WithServices } from '../../app/feature.js';
import { CliError } from '../../core/cli/errors.js';
import { print, printJson, printTable, show, tell } from '../../core/cli/output.js';

interface PushJson {
  booking_id: number;
  callsign: string | null;
  status: 'pending' | 'refused';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  /** When a pending push is tried next (null for a refused one: only network:retry sends it again). */
  next_attempt_at: string | null;
  /** A pending push some server is sending right now. */
  in_progress: boolean;
  updated_at: string;
}

function toJson(p: OpenPush, now: number): PushJson {
  return {
    booking_id: p.booking_id,
    callsign: p.callsign,
    status: p.status,
    attempts: p.attempts,
    last_status: p.last_status,
    last_error: p.last_error,
    next_attempt_at: p.status === 'pending' ? isoMicros(Math.max(p.next_attempt_at, p.lease_until ?? 0)) : null,
    in_progress: p.status === 'pending' && p.lease_until !== null && p.lease_until > now,
    updated_at: isoMicros(p.updated_at),
  };
}

const SYNC_OFF =
  'Network sync is off: NETWORK_BOOKINGS_URL and NETWORK_BOOKINGS_KEY are not set here, so nothing is pushed to the network (see docs/network-sync.md).';

/** What the operator can do about the pushes listed, by how the network responded to their last attempts. */
function advice(pushes: PushJson[], networkUrl: string | null): string[] {
  const pending = pushes.filter((p) => p.status === 'pending');
  // A response's error names no address (it is the network's message): the advice does.
  const at = networkUrl === null ? '' : show` at ${networkUrl}`;
  const lines: string[] = [];
  if (pending.some((p) => p.attempts > 0 && p.last_status === null && p.last_error !== null))
    lines.push(
      `The network could not be reached${at}: check that NETWORK_BOOKINGS_URL is right and reachable from the server's host (firewall, DNS, proxy); the server keeps retrying by itself.`,
    );
  if (pending.some((p) => p.last_status === 401 || p.last_status === 403))
    lines.push(`The network${at} refuses the key: check NETWORK_BOOKINGS_KEY with the network (a rejected key is retried).`);
  if (pending.some((p) => p.last_status !== null && (p.last_status >= 500 || p.last_status === 429 || p.last_status === 408)))
    lines.push(`The network${at} responded with an error that may pass: the server retries with backoff (up to an hour apart).`);
  if (pushes.some((p) => p.status === 'refused'))
    lines.push(
      "Refused pushes are not retried: fix the cause (the last error is the network's message), then `npx sector network:retry <booking-id>`.",
    );
  return lines;
}

async function status(withServices: WithServices, opts: { json?: boolean }): Promise<void> {
  await withServices(async (services) => {
    const now = services.clock();
    const pushes = (await services.networkStatus.open()).map((p) => toJson(p, now));
    const network = services.config.network;
    const networkUrl = network === null ? null : withoutSecrets(network.url);
    if (opts.json) {
      if (network === null) tell(SYNC_OFF);
      printJson(pushes);
      return;
    }
    if (pushes.length === 0) {
      print(
        network === null
          ? SYNC_OFF
          : show`Nothing pending for the network (${networkUrl}): every change made through the API has been pushed.`,
      );
      return;
    }
    printTable([
      ['BOOKING', 'CALLSIGN', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
      ...pushes.map((p) => [
        String(p.booking_id),
        p.callsign ?? '-',
        p.in_progress ? 'sending' : p.status,
        String(p.attempts),
        p.next_attempt_at === null ? '-' : p.in_progress ? 'now' : p.next_attempt_at.slice(0, 19).replace('T', ' '),
        p.last_error ?? '-',
      ]),
    ]);
    const refused = pushes.filter((p) => p.status === 'refused').length;
    print(`${pushes.length - refused} pending, ${refused} refused`);
    if (network === null) tell(`${SYNC_OFF} The pushes listed wait until it is configured again.`);
    for (const line of advice(pushes, networkUrl)) tell(line);
  });
}

async function retry(withServices: WithServices, ref: string): Promise<void> {
  if (!/^[1-9]\d{0,14}$/.test(ref)) throw new CliError(`the booking id must be a positive whole number (got "${ref}")`);
  const id = Number(ref);
  await withServices(async (services) => {
    const outcome = await services.networkStatus.retry(id);
    if (outcome === 'retried') {
      tell(`Booking ${id} will be pushed to the network again by the running server.`);
      return;
    }
    if (outcome === null)
      throw new CliError(`booking ${id} has no push to the network (no such booking, or it was never changed through the API)`);
    throw new CliError(
      outcome === 'done'
        ? `booking ${id} is already pushed to the network; nothing to retry`
        : `booking ${id} is still pending, not refused: it is retried by itself`,
    );
  });
}

export function registerNetworkCommands(program: Command, withServices: WithServices): void {
  program
    .command('network:status')
    .description("List pushes to the network's bookings service that are pending or were refused.")
    .option('--json', 'print one JSON array on stdout')
    .action(status.bind(null, withServices));
  program
    .command('network:retry')
    .description('Push a booking the network refused once more (after fixing the cause).')
    .argument('<booking-id>')
    .action(retry.bind(null, withServices));
}
