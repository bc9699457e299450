// What each staff role may do (contract §17): one rule, used by the staff pages and the services
// alike. Roles are held per area, or division-wide (Administrator only), which counts in every area.
import type { Decision } from '../../core/domain/errors.js';
import { ForbiddenError } from '../../core/domain/errors.js';

export const STAFF_ROLES = ['Administrator', 'Moderator', 'Mentor', 'Buddy'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

/** What a member holds, as the rule needs it. Areas are identified by id. */
export interface StaffMember {
  cid: number;
  /** Administrator of the whole division: every area's Administrator. */
  divisionAdmin: boolean;
  /** Area id -> the roles held there. */
  areaRoles: ReadonlyMap<number, ReadonlySet<string>>;
  /** Students whose training (open) has this member as a mentor, with the training's area. */
  trainees?: ReadonlyArray<{ cid: number; area: number }>;
}

/** The endorsement types staff issue (s1 is history only). */
export type IssuedEndorsement = 'facility' | 'visiting' | 'examiner' | 'solo';

export type StaffAction =
  /** Grant or revoke `role` in an area, or division-wide (area null). */
  | { kind: 'role'; role: string; area: number | null }
  /** Add, change or remove the area's positions. */
  | { kind: 'positions'; area: number | null }
  /** Issue, shorten or revoke an endorsement for these areas; a solo for `student`. */
  | { kind: 'endorsement'; type: IssuedEndorsement; areas: readonly number[]; student: number }
  /** Create a training, change its status or type, assign mentors, close it (§18); a mentor's own trainee: statuses 1–3. */
  | { kind: 'training'; area: number; student: number; statusOnly: boolean }
  /** Write or read a training's reports (§18). */
  | { kind: 'report'; area: number; student: number }
  /** Plan, move, grade or cancel an examination of a training of the area, examined by `examiners` (§18, §20); `graded`: correct one already graded. */
  | { kind: 'examination'; area: number; examiners: readonly number[]; graded: boolean }
  /** Keep the area's report templates (§20). */
  | { kind: 'templates'; area: number }
  /** Book any position of the area with any tag, change or cancel anyone's booking there. */
  | { kind: 'bookings'; area: number }
  /** Create a one-time link to write a report or grade an examination of a training of the area (§20). */
  | { kind: 'link'; area: number }
  /** Change or delete a sweatbox session booked by `booker` on a position of `area` (none: no area) (§23). */
  | { kind: 'sweatbox'; area: number | null; booker: number }
  /** Read and handle feedback on a position of `area`; null: feedback naming no position (§23). */
  | { kind: 'feedback'; area: number | null }
  /** Create, change or delete the division's votes (§23). */
  | { kind: 'votes' }
  /** Read the area's reports and statistics (§25): trainings, activity, mentors, access. */
  | { kind: 'reports'; area: number }
  /** Read the whole audit log on its page (§25). */
  | { kind: 'audit' }
  /** Ask another staff member for something about a training of the area (§21): `mentor` when the member mentors that training; area null: a custom task without a training. */
  | { kind: 'task'; area: number | null; mentor: boolean }
  /** Set a facility's tier and description (§22): facilities belong to no area. */
  | { kind: 'facilities' };

const ALLOWED: Decision = { ok: true };
const refused = (reason: string): Decision => ({ ok: false, reason });

/** The roles a member holds in an area (a division-wide Administrator is every area's). */
export function rolesIn(staff: StaffMember, area: number): Set<string> {
  const roles = new Set(staff.areaRoles.get(area) ?? []);
  if (staff.divisionAdmin) roles.add('Administrator');
  return roles;
}

/** Whether the member holds any role at all (the pages' "Staff" link, the staff pages' door). */
export const holdsAnyRole = (staff: StaffMember): boolean => staff.divisionAdmin || [...staff.areaRoles.values()].some((r) => r.size > 0);

/** Holds Mentor in some area, or mentors someone: "My students" is theirs (contract §20). */
export const isMentor = (staff: StaffMember): boolean =>
  [...staff.areaRoles.values()].some((r) => r.has('Mentor')) || (staff.trainees ?? []).length > 0;

const holds = (staff: StaffMember, area: number, ...roles: StaffRole[]) => roles.some((r) => rolesIn(staff, area).has(r));
const mentors = (staff: StaffMember, student: number, area: number) =>
  (staff.trainees ?? []).some((t) => t.cid === student && t.area === area);

/** Whether `staff` may do `action`, and if not, why (shown on the refusal page, 403). */
export function mayDo(staff: StaffMember, action: StaffAction): Decision {
  switch (action.kind) {
    case 'role': {
      if (action.role === 'Administrator') {
        return staff.divisionAdmin ? ALLOWED : refused('Only an Administrator of the whole division grants or revokes Administrator.');
      }
      if (action.area === null) return refused('Only Administrator is held division-wide; other roles belong to an area.');
      if (holds(staff, action.area, 'Administrator')) return ALLOWED;
      if (holds(staff, action.area, 'Moderator') && (action.role === 'Mentor' || action.role === 'Buddy')) return ALLOWED;
      return refused(
        holds(staff, action.area, 'Moderator')
          ? 'A Moderator grants and revokes Mentor and Buddy only.'
          : 'Granting and revoking roles of an area needs Administrator or Moderator there.',
      );
    }
    case 'positions':
      if (action.area === null ? staff.divisionAdmin : holds(staff, action.area, 'Administrator')) return ALLOWED;
      return refused("The area's positions are managed by its Administrators.");
    case 'endorsement': {
      if (action.areas.length === 0) return staff.divisionAdmin ? ALLOWED : refused('This endorsement belongs to no area you manage.');
      const all = action.areas.every((a) => holds(staff, a, 'Administrator', 'Moderator'));
      if (all) return ALLOWED;
      if (action.type === 'solo' && action.areas.every((a) => holds(staff, a, 'Mentor') && mentors(staff, action.student, a)))
        return ALLOWED;
      return refused(
        action.type === 'solo'
          ? "A solo endorsement is issued by the area's Administrators and Moderators, or by the student's own mentor."
          : `${action.type[0]!.toUpperCase()}${action.type.slice(1)} endorsements are issued by Administrators and Moderators of every area they name.`,
      );
    }
    case 'training':
      if (holds(staff, action.area, 'Administrator', 'Moderator')) return ALLOWED;
      if (action.statusOnly && holds(staff, action.area, 'Mentor') && mentors(staff, action.student, action.area)) return ALLOWED;
      return refused(
        "Trainings are managed by the area's Administrators and Moderators; a mentor moves their own trainees between statuses 1 and 3.",
      );
    case 'report':
      if (holds(staff, action.area, 'Administrator', 'Moderator', 'Buddy')) return ALLOWED;
      if (holds(staff, action.area, 'Mentor') && mentors(staff, action.student, action.area)) return ALLOWED;
      return refused("Training reports are written by the area's staff; a mentor writes them for their own trainees.");
    case 'examination':
      if (holds(staff, action.area, 'Administrator', 'Moderator')) return ALLOWED;
      if (action.graded) return refused("A graded examination is corrected only by the area's Administrators and Moderators.");
      if (action.examiners.includes(staff.cid)) return ALLOWED;
      return refused("Examinations are recorded by the area's Administrators and Moderators, or by the examiner.");
    case 'templates':
      return holds(staff, action.area, 'Administrator', 'Moderator')
        ? ALLOWED
        : refused("Report templates are kept by the area's Administrators and Moderators.");
    case 'bookings':
      return holds(staff, action.area, 'Administrator', 'Moderator')
        ? ALLOWED
        : refused("Other members' bookings are changed by the area's Administrators and Moderators.");
    case 'link':
      return holds(staff, action.area, 'Administrator', 'Moderator')
        ? ALLOWED
        : refused("One-time links are made by the area's Administrators and Moderators.");
    case 'sweatbox':
      if (staff.cid === action.booker) return ALLOWED;
      if (action.area === null ? staff.divisionAdmin : holds(staff, action.area, 'Administrator', 'Moderator')) return ALLOWED;
      return refused("A sweatbox session is changed by its booker or by the Administrators and Moderators of the position's area.");
    case 'feedback': {
      const ok =
        action.area === null
          ? staff.divisionAdmin || [...staff.areaRoles.values()].some((r) => r.has('Administrator') || r.has('Moderator'))
          : holds(staff, action.area, 'Administrator', 'Moderator');
      return ok ? ALLOWED : refused("Feedback is read by the Administrators and Moderators of the position's area.");
    }
    case 'votes':
      return staff.divisionAdmin ? ALLOWED : refused('Votes are created by an Administrator of the whole division.');
    case 'reports':
      return holds(staff, action.area, 'Administrator', 'Moderator')
        ? ALLOWED
        : refused('The reports of an area are read by its Administrators and Moderators.');
    case 'audit':
      return staff.divisionAdmin ? ALLOWED : refused('The audit log is read by Administrators of the whole division only.');
    case 'task':
      if (action.area === null) return holdsAnyRole(staff) ? ALLOWED : refused('Tasks are sent by staff.');
      return action.mentor || holds(staff, action.area, 'Administrator', 'Moderator')
        ? ALLOWED
        : refused("Tasks about a training are sent by its mentors and by the area's Administrators and Moderators.");
    case 'facilities':
      return staff.divisionAdmin || [...staff.areaRoles.values()].some((r) => r.has('Administrator'))
        ? ALLOWED
        : refused('Facilities and their tiers are kept by Administrators.');
  }
}

/** What an action is done to: the action without its kind (`authorize(staff, 'positions', { area })`). */
export type StaffTarget<K extends StaffAction['kind']> = Omit<Extract<StaffAction, { kind: K }>, 'kind'>;

/** The one permission check of a service: returns when `staff` may do `action` to `target`, else throws why (403). */
export function authorize<K extends StaffAction['kind']>(staff: StaffMember, action: K, target: StaffTarget<K>): void {
  const decision = mayDo(staff, { kind: action, ...target } as Extract<StaffAction, { kind: K }>);
  if (!decision.ok) throw new ForbiddenError(decision.reason);
}

/** An item of a staff list with the name of the person it concerns. */
export interface Named<T> {
  item: T;
  name: string;
}
