// What `npx sector network:status` and `network:retry` show and do: the pushes not yet made to the
// network, and a refused one sent again.
import type { Deps } from '../../app/deps.js';

export class NetworkStatusService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  /** Pending and refused pushes. */
  open() {
    return this.deps.repos.networkPushes.open();
  }

  /** Sends a refused push again; otherwise what it is (null: there is none). */
  async retry(bookingId: number): Promise<'retried' | 'done' | 'pending' | null> {
    const now = this.deps.clock();
    if (await this.deps.writer.write((w) => w.repos.networkPushes.retryRefused(bookingId, now))) return 'retried';
    const push = await this.deps.repos.networkPushes.status(bookingId);
    if (!push) return null;
    return push.status === 'done' ? 'done' : 'pending';
  }
}
