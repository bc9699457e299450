// What an import file asks for, once its shape is checked (docs/import-format.md): one list of
// records per section, each carrying its natural key and the fields it gives.

import type { EndorsementType, UsersTable } from '../../../core/db/schema.js';
import type { ImportFeedback } from './feedback.js';
import type { ImportTask } from './tasks.js';

export class ImportError extends Error {}

/*
 * A record carries its natural key and `set`: the fields it gives, as column values. A field
 * the record omits is absent from `set`, so an update keeps the stored value; an explicit null
 * is present (null, or the default of a field that has one). Whether a record creates or
 * updates a row is known only against the database: the importer checks required fields there.
 */

export type UserFields = Partial<Omit<UsersTable, 'id' | 'created_at' | 'updated_at' | 'last_login_at'>> & {
  last_login_at?: number | null;
  /** Given: kept as given; else a new row is created at the import, and a changed one updated then. */
  created_at?: number;
  updated_at?: number;
};
export interface ImportUser {
  id: number;
  set: UserFields;
  /** Areas whose activity the record sets; the others keep theirs. */
  atc_active_areas: Array<[area: string, active: boolean]>;
  /** When the grace of an area set active began (default: the import's time). */
  atc_grace_start: Map<string, number | null>;
  path: string;
}
export interface ImportPosition {
  callsign: string;
  set: Partial<{ name: string; frequency: string; area: string | null; rating: number; required_facility: string | null }>;
  path: string;
}
export interface ImportEndorsement {
  user_id: number;
  type: EndorsementType;
  valid_from: number;
  /** revoked_at only ever comes with revoked (a null revoked_at: the time is not known). */
  set: Partial<{
    rating: string;
    valid_to: number | null;
    revoked: boolean;
    revoked_at: number | null;
    issued_by: number | null;
    created_at: number;
    expiry_published_at: number | null;
  }>;
  /** Undefined: omitted, the stored links stay; a list (empty for null) replaces them. */
  areas?: string[];
  positions?: string[];
  path: string;
}
export interface ImportRole {
  user_id: number;
  /** Null: division-wide (Administrator only). */
  area: string | null;
  role: string;
  path: string;
}
/** A file of a report or an examination (contract §20): its bytes come from beside the import file, named by sha256. */
export interface ImportAttachment {
  name: string;
  type: string;
  size: number;
  sha256: string;
  hidden: boolean;
  uploader_id: number | null;
  uploader: string;
  created_at: number;
  /** Filled from the file before the import's transaction (ImportOptions.attachmentFile). */
  content: Buffer | null;
  path: string;
}
export interface ImportReport {
  report_date: string;
  content: string;
  improve: string | null;
  position: string | null;
  draft: boolean;
  author_id: number | null;
  created_at: number;
  updated_at: number;
  attachments?: ImportAttachment[];
}
export interface ImportExamination {
  examination_date: string;
  /** "HH:MM" UTC, or null. */
  start: string | null;
  position: string;
  examiner_id: number;
  /** In order, the first being examiner_id (§20). */
  examiners: number[];
  /** Null: planned. */
  result: 'PASSED' | 'FAILED' | 'INCOMPLETE' | 'POSTPONED' | null;
  created_at: number;
  updated_at: number;
  attachments?: ImportAttachment[];
}
export interface ImportTimelineEntry {
  at: number;
  actor: string;
  actor_name: string | null;
  action: string;
  /** JSON. */
  detail: string;
}
export interface ImportTraining {
  user_id: number;
  area: string;
  created_at: number;
  set: Partial<{
    type: string;
    status: number;
    started_at: number | null;
    closed_at: number | null;
    closed_reason: string | null;
    motivation: string | null;
    experience: number | null;
    english_only: boolean;
    paused_at: number | null;
    paused_ms: number;
    /** Given: wins over the wait taken from started_at. */
    queue_wait_ms: number | null;
    interest_confirmed_at: number | null;
    interest_deadline: number | null;
  }>;
  /** Undefined: omitted, the stored ones stay; a list (empty for null) replaces them. */
  ratings?: number[];
  facilities?: string[];
  mentors?: number[];
  reports?: ImportReport[];
  examinations?: ImportExamination[];
  timeline?: ImportTimelineEntry[];
  path: string;
}
export type BookingTag = 1 | 2 | 3;
export interface ImportBooking {
  /** Null: a new booking, numbered by the database. */
  id: number | null;
  set: Partial<{
    user_id: number;
    callsign: string;
    time_start: number;
    time_end: number;
    tag: BookingTag | null;
    source: string;
    deleted: boolean;
    network_booking: string | null;
    /** The flags as stored (an export gives them); they win over tag. */
    training: boolean;
    exam: boolean;
    event: boolean;
    training_forced: boolean;
    created_at: number;
    updated_at: number;
    /** The calendar's SEQUENCE as stored; never below the stored one plus the import's change. */
    revision: number;
  }>;
  path: string;
}
/** A report template, by (area, name); times null: the import's. */
export interface ImportTemplate {
  area: string;
  name: string;
  content: string;
  created_at: number | null;
  updated_at: number | null;
  path: string;
}
export interface ImportPlan {
  areas: string[];
  users: ImportUser[];
  positions: ImportPosition[];
  endorsements: ImportEndorsement[];
  roles: ImportRole[];
  trainings: ImportTraining[];
  bookings: ImportBooking[];
  /** Absent: none (a Control Center move has none). */
  report_templates?: ImportTemplate[];
  /** Facility names with a tier or a description (contract §22); absent: none. */
  facilities?: ImportFacility[];
  /** Tasks between staff (contract §21) and feedback (§23), by id when given; absent: none. */
  tasks?: ImportTask[];
  feedback?: ImportFeedback[];
  // Votes, sweatbox sessions and members' settings (contract §23, §24); absent: none.
  votes?: ImportVote[];
  sweatbox?: ImportSweatboxSession[];
  settings?: ImportSettings[];
}

export interface ImportFacility {
  name: string;
  tier: 'T1' | 'T2' | null;
  /** Undefined: the stored one stays (null for a new facility). */
  description: string | null | undefined;
  /** Null: the time of the import. */
  updated_at: number | null;
  path: string;
}

/** A vote by (question, closes_at): its options with their counts and who voted, never who chose what (§23). */
export interface ImportVote {
  question: string;
  closes_at: number;
  eligibility: 'members' | 'active' | 'all';
  /** Null: not known (Control Center keeps no creator). */
  created_by: number | null;
  /** Null: open, or (past its time) closed at closes_at by the import. */
  closed_at: number | null;
  created_at: number | null;
  updated_at: number | null;
  /** In order; a given list replaces the stored options. */
  options: Array<{ text: string; count: number }>;
  /** Undefined: the stored voters stay; a list replaces them. */
  voters?: Array<{ user_id: number; voted_on: string }>;
  path: string;
}
/** A sweatbox session by (callsign, time_start). */
export interface ImportSweatboxSession {
  callsign: string;
  time_start: number;
  time_end: number;
  user_id: number;
  notes: string;
  created_at: number | null;
  updated_at: number | null;
  path: string;
}
/** A member's settings by user_id: the look and the mail kinds it names (others keep theirs). */
export interface ImportSettings {
  user_id: number;
  /** Undefined: the stored look stays ('device' for a new row). */
  look: 'device' | 'light' | 'dark' | undefined;
  mail: Array<[kind: string, enabled: boolean]>;
  updated_at: number | null;
  path: string;
}
