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
