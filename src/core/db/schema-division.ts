// Table types of the division's hub requests (contract §22).
import type { ColumnType, Generated } from 'kysely';

type Id = Generated<number>;

/** A request owed to the division's hub (contract §22). */
export interface DivisionRequestsTable {
  id: Id;
  /** The member the request is about: requests about one member are sent in commit order. */
  member_cid: number;
  /** The thing (role, endorsement, task) whose refused request holds back later ones about it. */
  about: string;
  /** The driver's operation, JSON. */
  operation: string;
  state: 'pending' | 'refused' | 'sent';
  attempts: ColumnType<number, number | undefined, number>;
  next_at: number;
  /** 1: the last attempt of a create had no answer; the hub's list is matched before sending again. */
  unknown: ColumnType<number, number | undefined, number>;
  error: string | null;
  task_id: number | null;
  created_at: number;
  sent_at: number | null;
}

/** What the hub was last told a member is (mentor, examiner). */
export interface DivisionFlagsTable {
  member_cid: number;
  flag: 'mentor' | 'examiner';
}

/** An examination whose CPT upload the hub is owed once it has a file (contract §22). */
export interface DivisionCptTable {
  examination_id: number;
  graded_at: number;
  /** Null: waiting for a non-hidden file; set: its request is queued (never again). */
  queued_at: number | null;
}

/** One run of division:sync (contract §22); `added`/`removed` are JSON `{"roster": [cid], "tiers": [record]}`. */
export interface DivisionSyncsTable {
  id: Id;
  started_at: number;
  /** Null: under way, or stopped by a crash. */
  finished_at: number | null;
  forced: number;
  roster_added: ColumnType<number, number | undefined, number>;
  roster_removed: ColumnType<number, number | undefined, number>;
  tiers_added: ColumnType<number, number | undefined, number>;
  tiers_removed: ColumnType<number, number | undefined, number>;
  added: string;
  removed: string;
  error: string | null;
}
