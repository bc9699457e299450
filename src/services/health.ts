import type { HealthRepository } from '../repositories/health.js';

/** GET /health: whether the database responds at all. */
export class Health {
  constructor(private readonly repo: HealthRepository) {}

  /** False when the database cannot be reached (down, restarting, out of connections). */
  async databaseReachable(): Promise<boolean> {
    try {
      await this.repo.ping();
      return true;
    } catch {
      return false;
    }
  }
}
