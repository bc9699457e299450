import { presentPosition } from '../presenters/positions.js';
import type { PositionsRepository } from '../repositories/positions.js';
import type { PositionList } from '../schemas/positions.js';
import type { CachedBody, ResponseCache } from './response-cache.js';

/** GET /api/positions: every position, kept serialised until the database changes. */
export class PositionsList {
  constructor(
    private readonly positions: PositionsRepository,
    /** The services' response cache as it is at each request (see createServices). */
    private readonly responses: () => ResponseCache,
  ) {}

  answer(): Promise<CachedBody> {
    return this.responses().body('positions', ['positions'], async (): Promise<PositionList> => ({
      data: (await this.positions.list()).map(presentPosition),
    }));
  }
}
