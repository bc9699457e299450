// Sweatbox sessions as the API gives them (contract §23), times as bookings show them.
import { ymdHis } from '../../core/domain/time.js';
import type { SweatboxSession } from './sweatbox.schema.js';
import type { SessionRow } from './sweatbox.repository.js';

export const presentSession = (s: SessionRow): SweatboxSession => ({
  id: s.id,
  callsign: s.callsign,
  time_start: ymdHis(s.time_start),
  time_end: ymdHis(s.time_end),
  notes: s.notes,
  user_id: s.user_id,
});
