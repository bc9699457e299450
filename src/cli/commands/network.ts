import type { Command } from 'commander';
import { isoMicros } from '../../domain/time.js';
import type { OpenPush } from '../../repositories/networkPushes.js';
import { CliError, withServices } from '../context.js';

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

async function status(opts: { json?: boolean }): Promise<void> {
  await withServices(async (services) => {
    const now = services.clock();
    const pushes = (await services.repos.networkPushes.open()).map((p) => toJson(p, now));
    if (!services.config.network)
      process.stderr.write('Network sync is not configured (NETWORK_BOOKINGS_URL and NETWORK_BOOKINGS_KEY): nothing new is pushed.\n');
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(pushes)}\n`);
      return;
    }
    const refused = pushes.filter((p) => p.status === 'refused').length;
    if (pushes.length === 0) {
      process.stdout.write('Nothing owed to the network: every change made through the API is pushed.\n');
      return;
    }
    const rows = [
      ['BOOKING', 'CALLSIGN', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
      ...pushes.map((p) => [
        String(p.booking_id),
        p.callsign ?? '-',
        p.in_progress ? 'sending' : p.status,
        String(p.attempts),
        p.next_attempt_at === null ? '-' : p.in_progress ? 'now' : p.next_attempt_at.slice(0, 19).replace('T', ' '),
        p.last_error ?? '-',
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows)
      process.stdout.write(
        `${r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd()}\n`,
      );
    process.stdout.write(`${pushes.length - refused} pending, ${refused} refused`);
    process.stdout.write(refused > 0 ? ' (fix the cause, then `npx sector network:retry <booking-id>`)\n' : '\n');
  });
}

async function retry(ref: string): Promise<void> {
  if (!/^[1-9]\d{0,14}$/.test(ref)) throw new CliError(`the booking id must be a positive whole number (got "${ref}")`);
  const id = Number(ref);
  await withServices(async (services) => {
    const repo = services.repos.networkPushes;
    if (await repo.retryRefused(id, services.clock())) {
      process.stderr.write(`Booking ${id} will be pushed to the network again by the running server.\n`);
      return;
    }
    const push = await repo.status(id);
    if (!push) throw new CliError(`booking ${id} has no push to the network (no such booking, or it was never changed through the API)`);
    throw new CliError(
      push.status === 'done'
        ? `booking ${id} is already pushed to the network; nothing to retry`
        : `booking ${id} is still pending, not refused: it is retried by itself`,
    );
  });
}

export function registerNetworkCommands(program: Command): void {
  program
    .command('network:status')
    .description("List pushes to the network's bookings service that are pending or were refused.")
    .option('--json', 'print one JSON array on stdout')
    .action(status);
  program
    .command('network:retry')
    .description('Push a booking the network refused once more (after fixing the cause).')
    .argument('<booking-id>')
    .action(retry);
}
