// Tables of feedback, votes and the sweatbox (contract §23). Times are epoch milliseconds (UTC).
import type { Generated } from 'kysely';

export interface SweatboxSessionsTable {
  id: Generated<number>;
  position_id: number;
  /** The booker. */
  user_id: number;
  time_start: number;
  /** 15 minutes to 8 hours after time_start; sessions of one position never overlap (half-open). */
  time_end: number;
  /** 0–255 characters. */
  notes: string;
  created_at: number;
  updated_at: number;
}
