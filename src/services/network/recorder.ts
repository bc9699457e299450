import type { Dialect } from '../../db/connection.js';
import { networkPushesRepository } from '../../repositories/networkPushes.js';
import type { BookingChange, BookingChangeRecorder, ChangeContext } from '../booking-changes.js';

/**
 * Owes the network each booking changed through the API, in the change's own transaction: a
 * change that commits is pushed even if the process dies right after, one that rolls back is not.
 * Imports are not pushed.
 */
export class NetworkPushRecorder implements BookingChangeRecorder {
  constructor(
    private readonly dialect: Dialect,
    private readonly wake: () => void,
  ) {}

  async record(trx: Parameters<BookingChangeRecorder['record']>[0], changes: BookingChange[], context: ChangeContext): Promise<void> {
    if (context.origin !== 'api') return;
    await networkPushesRepository(trx, this.dialect).markChanged(
      changes.map((c) => c.after.id),
      context.at,
    );
  }

  committed(): void {
    this.wake();
  }
}
