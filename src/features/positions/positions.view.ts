import type { PositionRow } from '../../core/db/schema.js';
import { ratingCode } from '../members/domain/ratings.js';
import type { Position, PositionDetail } from './positions.schema.js';

/** Three decimals; "" for a position whose frequency is not known (moved from Control Center without one, §19). */
export function presentPosition(p: PositionRow): Position {
  return { callsign: p.callsign, name: p.name, frequency: p.frequency === '' ? '' : Number(p.frequency).toFixed(3) };
}

export function presentPositionDetail(p: PositionRow, area: string | null): PositionDetail {
  return { ...presentPosition(p), area, rating: ratingCode(p.rating), required_facility: p.required_facility };
}
