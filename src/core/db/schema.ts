// Table types for Kysely. Times are integer milliseconds since the Unix epoch (UTC) in both
// dialects, so comparisons, ranges and the PostgreSQL exclusion constraint behave identically.
// Flags are integers 0/1, as the API exposes them.
import type { ColumnType, Generated, Selectable } from 'kysely';

import type {
  EventsTable,
  WebhooksTable,
  JobLeasesTable,
  OutboxCursorsTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  NetworkPushesTable,
  AuditLogTable,
  SessionsTable,
  LoginStatesTable,
  SettingsTable,
  MemberCalendarsTable,
  RosterStagingTable,
  IdempotencyKeysTable,
} from './schema-operations.js';
import type {
  MailOutboxTable,
  ReportTemplatesTable,
  TrainingExaminationsTable,
  TrainingExaminersTable,
  TrainingFacilitiesTable,
  TrainingReportsTable,
  TrainingLinksTable,
  TrainingTimelineTable,
} from './schema-training.js';
import type { TrainingAttachmentsTable } from './schema-attachments.js';
import type { MailChoicesTable, MemberSettingsTable, NoticesSentTable } from './schema-notices.js';
import type {
  FeedbackCommentsTable,
  FeedbackTable,
  SweatboxSessionsTable,
  VoteOptionsTable,
  VotesTable,
  VoteVotersTable,
} from './schema-community.js';
import type { FacilitiesTable, TasksTable } from './schema-tasks.js';
import type { DivisionCptTable, DivisionFlagsTable, DivisionRequestsTable, DivisionSyncsTable } from './schema-division.js';

export type * from './schema-attachments.js';
export type * from './schema-community.js';
export type * from './schema-division.js';
export type * from './schema-notices.js';
export type * from './schema-operations.js';
export type * from './schema-tasks.js';
export type * from './schema-training.js';

type Id = Generated<number>;

export interface AreasTable {
  id: Id;
  name: string;
}

export interface UsersTable {
  /** The network's user ID (CID). */
  id: number;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  /** Numeric rating value (see features/members/domain/ratings.ts). */
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
  created_at: number;
  updated_at: number;
  /** When the member last signed in on the page; null: never. */
  last_login_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Pseudonymised by user:erase: the roster and the data feed leave the name alone until they sign in again. */
  erased_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UserAreaActivityTable {
  user_id: number;
  area_id: number;
  active: number;
  /** When an import set the area active: a grace of ACTIVITY_GRACE_MONTHS runs from it. */
  granted_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AtcSessionsTable {
  id: Generated<number>;
  cid: number;
  /** The callsign the controller used (EKCH_A_TWR). */
  callsign: string;
  /** The division position it counts for (EKCH_TWR). */
  position: string;
  name: string | null;
  frequency: string | null;
  /** The start: the logon, never after the first sighting. */
  logon_time: number;
  /** The feed's logon as the network gave it (finds the session at the next poll); null for history. */
  feed_logon_time: ColumnType<number | null, number | null | undefined, number | null>;
  last_seen: number;
  /** Null while the controller is still seen in the feed. */
  ended_at: number | null;
  /** 'feed' or 'history' (the backfill). */
  source: string;
}

export interface ActivityBackfillTable {
  cid: number;
  next_offset: number;
  done_at: number | null;
}

export interface PositionsTable {
  id: Id;
  callsign: string;
  name: string;
  /** Always three decimals, e.g. "118.105". */
  frequency: string;
  area_id: number | null;
  /** Minimum rating value to control the position without a training tag. */
  rating: number;
  /** Name of the facility endorsement required to control it (e.g. "T1 EKCH TWR"). */
  required_facility: string | null;
}

export type EndorsementType = 'visiting' | 'examiner' | 'facility' | 'solo' | 's1';

export interface EndorsementsTable {
  id: Id;
  user_id: number;
  type: EndorsementType;
  /** Rating code for visiting/examiner, facility name for facility, null for solo/s1. */
  rating: string | null;
  valid_from: number;
  valid_to: number | null;
  revoked: number;
  /** When it was revoked; drives the deprecated "ended within 14 days" lists. */
  revoked_at: number | null;
  created_at: number;
  /** CID of the staff member who issued it (null: imported, or issued through the API or CLI). */
  issued_by: number | null;
  /** When `endorsement.expired` was published (or, ended before it could be, when it was found ended). */
  expiry_published_at: number | null;
}

export interface EndorsementAreasTable {
  endorsement_id: number;
  area_id: number;
}

export interface EndorsementPositionsTable {
  endorsement_id: number;
  position_id: number;
}

export interface RolesTable {
  id: Id;
  user_id: number;
  /** Null: division-wide (Administrator only). */
  area_id: number | null;
  role: string;
}

/** The mentors of a training: a mentor acts on their own trainees (contract §17, §18). */
export interface TrainingMentorsTable {
  training_id: number;
  user_id: number;
}

export interface TrainingsTable {
  id: Id;
  user_id: number;
  area_id: number;
  type: string;
  status: number;
  created_at: number;
  started_at: number | null;
  closed_at: number | null;
  closed_reason: string | null;
  motivation: string | null;
  /** 1–6 (contract §18). */
  experience: number | null;
  english_only: Generated<number>;
  /** Paused since (null: running). */
  paused_at: number | null;
  /** Time paused before paused_at: not waiting time. */
  paused_ms: Generated<number>;
  /** Set when it leaves the queue: how long it waited there, pauses left out. */
  queue_wait_ms: number | null;
  /** Continued interest last confirmed (null: never; counted from created_at). */
  interest_confirmed_at: number | null;
  /** An open request to confirm continued interest: closed by the system when this passes. */
  interest_deadline: number | null;
}

export interface TrainingRatingsTable {
  training_id: number;
  rating: number;
}

export interface BookingsTable {
  id: Id;
  user_id: number;
  position_id: number;
  source: string;
  network_booking: string | null;
  time_start: number;
  time_end: number;
  training: number;
  /** 1 when training was forced on a booker not qualified for the position, not chosen (tag 1). */
  training_forced: Generated<number>;
  event: number;
  exam: number;
  deleted: number;
  created_at: number;
  updated_at: number;
  /** 0 at creation, one more with every update and the soft delete (the calendar's SEQUENCE). */
  revision: Generated<number>;
}

export type ApiKeyScope = 'read' | 'edit';

export interface ApiKeysTable {
  /** Public identifier, embedded in the token; not secret. */
  id: string;
  name: string;
  scope: ApiKeyScope;
  variant: 'newer' | 'older' | null;
  compat: 'none' | 'controlcenter' | null;
  /** SHA-256 (hex) of the token's secret part. The secret itself is never stored. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface Database {
  areas: AreasTable;
  users: UsersTable;
  user_area_activity: UserAreaActivityTable;
  positions: PositionsTable;
  endorsements: EndorsementsTable;
  endorsement_areas: EndorsementAreasTable;
  endorsement_positions: EndorsementPositionsTable;
  roles: RolesTable;
  trainings: TrainingsTable;
  training_ratings: TrainingRatingsTable;
  training_mentors: TrainingMentorsTable;
  training_facilities: TrainingFacilitiesTable;
  training_reports: TrainingReportsTable;
  training_examinations: TrainingExaminationsTable;
  training_examiners: TrainingExaminersTable;
  training_links: TrainingLinksTable;
  training_timeline: TrainingTimelineTable;
  report_templates: ReportTemplatesTable;
  training_attachments: TrainingAttachmentsTable;
  tasks: TasksTable;
  facilities: FacilitiesTable;
  mail_outbox: MailOutboxTable;
  bookings: BookingsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  job_leases: JobLeasesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  network_pushes: NetworkPushesTable;
  outbox_cursors: OutboxCursorsTable;
  division_requests: DivisionRequestsTable;
  division_flags: DivisionFlagsTable;
  division_cpt: DivisionCptTable;
  division_syncs: DivisionSyncsTable;
  audit_log: AuditLogTable;
  sessions: SessionsTable;
  login_states: LoginStatesTable;
  settings: SettingsTable;
  member_calendars: MemberCalendarsTable;
  atc_sessions: AtcSessionsTable;
  activity_backfill: ActivityBackfillTable;
  roster_staging: RosterStagingTable;
  idempotency_keys: IdempotencyKeysTable;
  member_settings: MemberSettingsTable;
  mail_choices: MailChoicesTable;
  notices_sent: NoticesSentTable;
  sweatbox_sessions: SweatboxSessionsTable;
  votes: VotesTable;
  vote_options: VoteOptionsTable;
  vote_voters: VoteVotersTable;
  feedback: FeedbackTable;
  feedback_comments: FeedbackCommentsTable;
}

export type Booking = Selectable<BookingsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type PositionRow = Selectable<PositionsTable>;
export type EndorsementRow = Selectable<EndorsementsTable>;
export type EventRow = Selectable<EventsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type { ColumnType };
