// What the staff pages show, as the StaffDesk service (src/services/staff.ts) reads it.
import type { MemberBooking } from '../../repositories/member-bookings.js';
import type { RoleHeld } from '../../repositories/roles.js';
import type { StaffUserRow } from '../../repositories/staff.js';
import type { TrainingRecord } from '../../repositories/trainings.js';
import type { Endorsement } from '../../schemas/endorsements.js';

/** One hour figure of an area (ActivityService.explain). */
export interface AreaHours {
  area: string;
  hours: number;
  required_hours: number | null;
  grace_until: number | null;
  active: boolean;
}

export interface Named<T> {
  item: T;
  name: string;
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
}

/** What the issue form offers: positions with their areas, and the facility names positions require. */
export interface IssueChoices {
  positions: Array<{ callsign: string; name: string; area: string | null }>;
  facilities: string[];
}
