// The demo generator's output: exactly the import format of docs/import-format.md, as plain JSON data.
import type { RatingCode } from '../members/domain/ratings.js';

export interface DemoUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  rating: RatingCode;
  region: string;
  division: string;
  subdivision: string | null;
  atc_active_areas: Record<string, boolean>;
}

export interface DemoPosition {
  callsign: string;
  name: string;
  frequency: string;
  area: string;
  rating: RatingCode;
  required_facility: string | null;
}

export type DemoEndorsementType = 'visiting' | 'examiner' | 'facility' | 'solo' | 's1';

export interface DemoEndorsement {
  user_id: number;
  type: DemoEndorsementType;
  /** Rating code for visiting/examiner, facility name for facility, null for solo/s1. */
  rating: string | null;
  areas: string[];
  positions: string[];
  valid_from: string;
  valid_to: string | null;
  revoked: boolean;
  revoked_at: string | null;
}

export interface DemoRole {
  user_id: number;
  area: string;
  role: string;
}

export interface DemoTraining {
  user_id: number;
  area: string;
  type: string;
  status: number;
  created_at: string;
  started_at: string | null;
  ratings: RatingCode[];
}

export interface DemoBooking {
  user_id: number;
  callsign: string;
  time_start: string;
  time_end: string;
  tag: 1 | 2 | 3 | null;
  source: string;
}

/** Requests between staff, feedback, votes and sweatbox sessions, in the import format's sections. */
export interface DemoCommunity {
  tasks: Array<{
    type: string;
    status: string;
    subject_user_id: number;
    training: { area: string; created_at: string } | null;
    rating: RatingCode | null;
    message: string | null;
    creator_id: number;
    assignee_id: number;
    created_at: string;
    closed_at: string | null;
    closed_message: string | null;
  }>;
  feedback: Array<{
    sender_id: number;
    controller: number | null;
    position: string | null;
    text: string;
    actioned: boolean;
    created_at: string;
  }>;
  votes: Array<{
    question: string;
    closes_at: string;
    eligibility: string;
    options: Array<{ text: string; count: number }>;
    voters: Array<{ user_id: number; voted_on: string }>;
    created_by: number;
    closed_at: string | null;
  }>;
  sweatbox: Array<{ callsign: string; time_start: string; time_end: string; user_id: number; notes: string }>;
}

export interface DemoData extends DemoCommunity {
  areas: string[];
  users: DemoUser[];
  positions: DemoPosition[];
  endorsements: DemoEndorsement[];
  roles: DemoRole[];
  trainings: DemoTraining[];
  bookings: DemoBooking[];
}

export interface DemoScale {
  users: number;
  /** Average number of endorsements per user (current and historic); the total is rounded. */
  endorsementsPerUser: number;
  /** Trainings with status >= 0; about a third as many closed ones are added as history. */
  openTrainings: number;
  bookings: number;
}
