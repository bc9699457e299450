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

export type VoteEligibility = 'members' | 'active' | 'all';

export interface VotesTable {
  id: Generated<number>;
  /** 1–500 characters. */
  question: string;
  /** Who may vote: members of the division, ATC-active members, or every signed-in user. */
  eligibility: VoteEligibility;
  closes_at: number;
  /** When vote.closed was published (once); null while open or not yet closed by the worker. */
  closed_at: number | null;
  /** The Administrator who made it; 0: not known (a vote moved from Control Center, which keeps no creator). */
  created_by: number;
  created_at: number;
  updated_at: number;
}

export interface VoteOptionsTable {
  id: Generated<number>;
  vote_id: number;
  /** 1–10, the order shown. */
  position: number;
  text: string;
  /** Ballots for this option: the only record of what was chosen (no voter is linked to it). */
  count: Generated<number>;
}

/** That a member voted, with the day (YYYY-MM-DD) and no option. */
export interface VoteVotersTable {
  vote_id: number;
  user_id: number;
  voted_on: string;
}

export interface FeedbackTable {
  id: Generated<number>;
  /** Who sent it: shown only on the staff page, never in the API or an event. */
  sender_id: number;
  /** The controller it is about: any CID (not only Sector's users), or none. */
  controller: number | null;
  position_id: number | null;
  /** 1–4000 characters; never changes. */
  text: string;
  actioned: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** Staff's internal comments on a feedback (never in the API). */
export interface FeedbackCommentsTable {
  id: Generated<number>;
  feedback_id: number;
  author_id: number;
  text: string;
  created_at: number;
}
