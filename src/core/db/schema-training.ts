// Table types of the training pipeline (contract §18) and the mail it sends.
import type { Generated } from 'kysely';

/** Facility endorsements a training is for (its rating codes are in training_ratings). */
export interface TrainingFacilitiesTable {
  training_id: number;
  name: string;
}

export interface TrainingReportsTable {
  id: Generated<number>;
  training_id: number;
  /** CID of who wrote it (null: the API or an import). */
  author_id: number | null;
  /** YYYY-MM-DD */
  report_date: string;
  content: string;
  improve: string | null;
  /** Callsign. */
  position: string | null;
  /** 1: not shown to the student, not published. */
  draft: number;
  created_at: number;
  updated_at: number;
}

export interface TrainingExaminationsTable {
  id: Generated<number>;
  training_id: number;
  examiner_id: number;
  /** YYYY-MM-DD */
  examination_date: string;
  position: string;
  /** "HH:MM" UTC, or null: no time set. */
  start: string | null;
  /** Null: planned, not graded yet. */
  result: 'PASSED' | 'FAILED' | 'INCOMPLETE' | 'POSTPONED' | null;
  created_at: number;
  updated_at: number;
}

/** The examiners of an examination, in order: ordinal 1 is the examination's examiner_id. */
export interface TrainingExaminersTable {
  examination_id: number;
  ordinal: number;
  user_id: number;
}

/** A one-time link to write one report, or grade one examination, of a training (contract §20). */
export interface TrainingLinksTable {
  id: Generated<number>;
  training_id: number;
  kind: 'report' | 'examination';
  examination_id: number | null;
  /** sha256 (hex) of the token's secret: the token itself is shown once and never stored. */
  token_hash: string;
  created_by: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: number | null;
}

export interface TrainingTimelineTable {
  id: Generated<number>;
  training_id: number;
  at: number;
  /** As the audit log writes it: `member:<cid>`, `key:<id>`, `cli`, or `system`. */
  actor: string;
  actor_name: string | null;
  action: string;
  /** JSON: what changed. */
  detail: string;
}

/** A Markdown starting text for reports, kept per area (contract §20). */
export interface ReportTemplatesTable {
  id: Generated<number>;
  area_id: number;
  /** 1–80 characters, unique within the area. */
  name: string;
  /** Markdown, 1–20000 characters. */
  content: string;
  created_at: number;
  updated_at: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  attempts: Generated<number>;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
}
