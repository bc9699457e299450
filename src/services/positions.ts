import { presentPosition } from '../presenters/positions.js';
import type { PositionsRepository } from '../repositories/positions.js';
import type { PositionList } from '../schemas/positions.js';

/** GET /api/positions: every position. */
export class PositionsList {
  constructor(private readonly positions: PositionsRepository) {}

  async list(): Promise<PositionList> {
    return { data: (await this.positions.list()).map(presentPosition) };
  }
}
