// Roles granted and revoked (contract §17): by the CLI (the first Administrator) and on the staff
// pages, one write each with its audit entry and event.
import { type AuditActor, userTarget } from '../audit/domain/index.js';
import { ConflictError, ValidationError } from '../../core/domain/errors.js';
import { authorize, holdsAnyRole, isStaffRole, rolesIn, STAFF_ROLES, type StaffMember } from './domain.js';
import type { RoleHeld } from './roles.repository.js';
import type { Write } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

export type { RoleHeld };

export interface Area {
  id: number;
  name: string;
}

/** The viewer as staff: their roles, and the areas they hold one in (every area for a division-wide Administrator). */
export interface StaffView {
  member: StaffMember;
  areas: Area[];
  myAreas: Area[];
  /** Whether they hold any role (the door to every staff page). */
  isStaff: boolean;
}

export class RolesService {
  constructor(private readonly deps: Deps<'writer' | 'repos'>) {}

  /** The viewer as staff (the staff scope's guard, src/features/roles/staff-scope.ts). */
  async viewer(cid: number): Promise<StaffView> {
    const [member, areas] = await Promise.all([this.deps.repos.roles.staffMember(cid), this.deps.repos.positions.areas()]);
    const myAreas = areas.filter((a) => rolesIn(member, a.id).size > 0);
    return { member, areas, myAreas, isStaff: holdsAnyRole(member) };
  }

  /** Every role held (or one user's), by user, area (division-wide first) and role. */
  list(userId?: number): Promise<RoleHeld[]> {
    return this.deps.repos.roles.list(userId);
  }

  grant(userId: number, role: string, area: string | null, actor: AuditActor): Promise<RoleHeld> {
    return this.change('granted', userId, role, area, actor);
  }

  revoke(userId: number, role: string, area: string | null, actor: AuditActor): Promise<RoleHeld> {
    return this.change('revoked', userId, role, area, actor);
  }

  private change(what: 'granted' | 'revoked', userId: number, role: string, area: string | null, actor: AuditActor): Promise<RoleHeld> {
    return this.deps.writer.write(async (w) => {
      const { areaId, held } = await this.checked(w, userId, role, area, actor);
      const changed =
        what === 'granted' ? await w.repos.roles.grant(userId, areaId, role) : await w.repos.roles.revoke(userId, areaId, role);
      const where = held.area === null ? 'division-wide' : `in ${held.area}`;
      if (!changed) {
        throw new ConflictError(
          what === 'granted' ? `User ${userId} already holds ${role} ${where}.` : `User ${userId} does not hold ${role} ${where}.`,
        );
      }
      await w.audit(actor, [{ action: `role.${what}`, target: userTarget(userId), before: null, after: { role, area: held.area } }]);
      await w.publish([{ type: `role.${what}`, data: { role: held } }]);
      return held;
    });
  }

  /** The role's names checked and the area's id found; a member must be allowed to change it. */
  private async checked(w: Write, userId: number, role: string, area: string | null, actor: AuditActor) {
    const errors: Record<string, string[]> = {};
    if (!isStaffRole(role)) errors.role = [`The role must be one of: ${STAFF_ROLES.join(', ')}.`];
    const areas = await w.repos.positions.areas();
    const found = area === null ? null : areas.find((a) => a.name.toLowerCase() === area.toLowerCase());
    if (area !== null && !found)
      errors.area = [`There is no area named "${area}"; areas: ${areas.map((a) => a.name).join(', ') || 'none'}.`];
    if (area === null && isStaffRole(role) && role !== 'Administrator') errors.area = [`${role} is held in an area: name one.`];
    if (!(await w.repos.endorsements.lockUser(userId)))
      errors.user_id = [
        `There is no user with CID ${userId}: a person is known to Sector once they have signed in, or come from \`npx sector import\` or \`roster:sync\`.`,
      ];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const areaId = found ? found.id : null;
    if (actor.kind === 'member') {
      authorize(await w.repos.roles.staffMember(actor.cid), 'role', { role, area: areaId });
    }
    return { areaId, held: { user_id: userId, role, area: found ? found.name : null } satisfies RoleHeld };
  }
}
