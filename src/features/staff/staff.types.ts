// What the staff pages show, as the StaffService (src/features/staff/staff.service.ts) reads it.
import type { MemberBooking } from '../bookings/index.js';
import type { RoleHeld } from '../roles/index.js';
import type { StaffUserRow } from './staff.repository.js';
import type { TrainingRecord } from '../trainings/index.js';
import type { Endorsement } from '../endorsements/index.js';
import type { Named } from '../roles/domain.js';

/** One hour figure of an area (ActivityService.explain). */
export interface AreaHours {
  area: string;
  hours: number;
  required_hours: number | null;
  grace_until: number | null;
  active: boolean;
}

export interface Overview {
  queue: Array<Named<TrainingRecord>>;
  unmentored: Array<Named<TrainingRecord>>;
  endingSolos: Array<Named<Endorsement>>;
  /** The trainings of these lists the viewer may open (a mentor: their own trainees only). */
  opens: ReadonlySet<number>;
  /** The viewer's own trainees (contract §20), for a viewer holding Mentor or mentoring someone; else null. */
  students: Student[] | null;
}

/** One of a mentor's trainees (GET /staff/students). */
export interface Student {
  training: TrainingRecord;
  /** "First Last (cid)". */
  name: string;
  /** Whole days since the training left the queue (or was applied for, while in it). */
  daysInTraining: number;
  /** YYYY-MM-DD of the last report, and whole days since it; null: none yet. */
  lastReport: string | null;
  daysSinceReport: number | null;
  /** YYYY-MM-DD of the next examination, or null. */
  nextExam: string | null;
}

export interface Person {
  user: StaffUserRow;
  endorsements: Endorsement[];
  roles: RoleHeld[];
  trainings: TrainingRecord[];
  hours: AreaHours[];
  bookings: MemberBooking[];
  /** The names of the issuers and mentors named above, by CID. */
  names: ReadonlyMap<number, string>;
}

/** What the issue form offers: positions with their areas, and the facility names positions require. */
export interface IssueChoices {
  positions: Array<{ callsign: string; name: string; area: string | null }>;
  facilities: string[];
}
