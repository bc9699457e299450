// Roles held per area or division-wide (area null), and what a staff member holds (contract §17).
import type { Executor } from '../../core/db/connection.js';
import type { StaffMember } from './domain.js';
import { openTraining } from './predicates.js';

export interface RoleHeld {
  user_id: number;
  role: string;
  /** Null: division-wide. */
  area: string | null;
}

export function rolesRepository(db: Executor) {
  return {
    /** What the member holds, with their open trainings' students (as a mentor). */
    async staffMember(cid: number): Promise<StaffMember> {
      const roles = await db.selectFrom('roles').select(['area_id', 'role']).where('user_id', '=', cid).execute();
      const trainees = await db
        .selectFrom('training_mentors as m')
        .innerJoin('trainings', 'trainings.id', 'm.training_id')
        .select(['trainings.user_id as cid', 'trainings.area_id as area'])
        .where('m.user_id', '=', cid)
        .where(openTraining)
        .execute();
      const areaRoles = new Map<number, Set<string>>();
      for (const r of roles) if (r.area_id !== null) areaRoles.set(r.area_id, (areaRoles.get(r.area_id) ?? new Set()).add(r.role));
      return { cid, divisionAdmin: roles.some((r) => r.area_id === null && r.role === 'Administrator'), areaRoles, trainees };
    },

    /** Every role held, or one user's: by user, then area name (division-wide first), then role. */
    async list(userId?: number): Promise<RoleHeld[]> {
      const rows = await db
        .selectFrom('roles')
        .leftJoin('areas', 'areas.id', 'roles.area_id')
        .select(['roles.user_id', 'roles.role', 'areas.name as area'])
        .$if(userId !== undefined, (q) => q.where('roles.user_id', '=', userId!))
        .execute();
      const text = (s: string | null) => s ?? '';
      return rows.sort(
        (a, b) =>
          a.user_id - b.user_id ||
          (text(a.area) < text(b.area) ? -1 : text(a.area) > text(b.area) ? 1 : 0) ||
          (a.role < b.role ? -1 : a.role > b.role ? 1 : 0),
      );
    },

    /** Adds the role; false when the user already holds it. */
    async grant(userId: number, areaId: number | null, role: string): Promise<boolean> {
      const added = await db
        .insertInto('roles')
        .values({ user_id: userId, area_id: areaId, role })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return added !== undefined;
    },

    /** Removes the role; false when the user did not hold it. */
    async revoke(userId: number, areaId: number | null, role: string): Promise<boolean> {
      const removed = await db
        .deleteFrom('roles')
        .where('user_id', '=', userId)
        .where('role', '=', role)
        .where('area_id', areaId === null ? 'is' : '=', areaId)
        .returning('id')
        .executeTakeFirst();
      return removed !== undefined;
    },

    /** Removes every role the user holds (a member erased, contract §24); returns those it removed. */
    async revokeAll(userId: number): Promise<RoleHeld[]> {
      const gone = await db.deleteFrom('roles').where('user_id', '=', userId).returning(['role', 'area_id']).execute();
      const ids = gone.flatMap((g) => (g.area_id === null ? [] : [g.area_id]));
      const names = new Map(
        ids.length === 0
          ? []
          : (await db.selectFrom('areas').select(['id', 'name']).where('id', 'in', ids).execute()).map((a) => [a.id, a.name]),
      );
      return gone.map((g) => ({ user_id: userId, role: g.role, area: g.area_id === null ? null : (names.get(g.area_id) ?? null) }));
    },
  };
}

export type RolesRepository = ReturnType<typeof rolesRepository>;
