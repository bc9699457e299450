import type { PositionRow } from '../db/schema.js';

export interface PositionJson {
  callsign: string;
  name: string;
  frequency: string;
}

export function presentPosition(p: PositionRow): PositionJson {
  return { callsign: p.callsign, name: p.name, frequency: Number(p.frequency).toFixed(3) };
}
