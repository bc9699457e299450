// Table types of tasks between staff (contract §21) and facilities with tiers (§22).
import type { Generated } from 'kysely';

export type TaskType = 'rating_upgrade' | 'solo_endorsement' | 'theory_exam' | 'custom';
export type TaskStatus = 'pending' | 'completed' | 'declined' | 'withdrawn';

export interface TasksTable {
  id: Generated<number>;
  type: TaskType;
  status: TaskStatus;
  subject_user_id: number;
  /** Null only for a custom task. */
  training_id: number | null;
  /** Rating value (S2 = 3 …) for rating_upgrade and theory_exam; null otherwise. */
  rating: number | null;
  message: string | null;
  creator_id: number;
  assignee_id: number;
  created_at: number;
  /** Set when the task leaves pending. */
  closed_at: number | null;
  closed_message: string | null;
  /** The hub's part (§22): null while no division API is configured. */
  division_api_state: 'pending' | 'sent' | 'refused' | null;
  division_api_error: string | null;
}

export interface FacilitiesTable {
  name: string;
  tier: 'T1' | 'T2' | null;
  description: string | null;
  updated_at: number;
}
