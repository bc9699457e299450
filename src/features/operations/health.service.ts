import type { Deps } from '../../app/deps.js';

/** GET /health: whether the database responds at all. */
export class HealthService {
  constructor(private readonly deps: Deps<'repos'>) {}

  /** False when the database cannot be reached (down, restarting, out of connections). */
  async databaseReachable(): Promise<boolean> {
    try {
      await this.deps.repos.health.ping();
      return true;
    } catch {
      return false;
    }
  }
}
