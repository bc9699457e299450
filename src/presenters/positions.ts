import type { PositionRow } from '../db/schema.js';
import type { Position } from '../schemas/positions.js';

export function presentPosition(p: PositionRow): Position {
  return { callsign: p.callsign, name: p.name, frequency: Number(p.frequency).toFixed(3) };
}
