import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
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

  async record(trx: Kysely<Database>, changes: BookingChange[], context: ChangeContext): Promise<void> {
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
