// What `npx sector network:status` and `network:retry` show and do: the pushes not yet made to the
// network, and a refused one sent again.
import type { Clock } from '../../domain/time.js';
import type { ReadRepositories } from '../../repositories/index.js';
import type { Writer } from '../write.js';

export class NetworkStatus {
  constructor(
    private readonly writer: Writer,
    private readonly repos: ReadRepositories,
    private readonly clock: Clock,
  ) {}

  /** Pending and refused pushes. */
  open() {
    return this.repos.networkPushes.open();
  }

  /** Sends a refused push again; otherwise what it is (null: there is none). */
  async retry(bookingId: number): Promise<'retried' | 'done' | 'pending' | null> {
    const now = this.clock();
    if (await this.writer.write((w) => w.repos.networkPushes.retryRefused(bookingId, now))) return 'retried';
    const push = await this.repos.networkPushes.status(bookingId);
    if (!push) return null;
    return push.status === 'done' ? 'done' : 'pending';
  }
}
