// Rows behind the deprecated endpoints of the deprecated endpoints (docs/api.md). Each list is a fixed number of set-based
// queries over the whole division, whatever its size.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { activeEndorsement } from '../endorsements/predicates.js';
import { LEGACY_ROLES, type LegacyRole } from '../members/domain/index.js';
import { recentCutoff } from '../endorsements/times.domain.js';

// Predicates here run over aliased tables, which Kysely's table-name parameter cannot name.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<Database, any>;

export interface TrainingEndorsementCandidate {
  id: number;
  user_id: number;
  valid_from: number;
  valid_to: number | null;
  revoked: number;
  revoked_at: number | null;
}

export function deprecatedRepository(db: Kysely<Database>) {
  const atcActive = (eb: ExpressionBuilder<Database, 'endorsements'>) =>
    eb
      .exists(
        eb
          .selectFrom('user_area_activity')
          .select('user_area_activity.user_id')
          .whereRef('user_area_activity.user_id', '=', 'endorsements.user_id')
          .where('user_area_activity.active', '=', 1),
      )
      .as('atc_active');

  return {
    /** Mentor, moderator and administrator assignments with their area names (only legacy roles pass the filter). */
    roleAssignments(): Promise<Array<{ user_id: number; role: LegacyRole; area: string }>> {
      return db
        .selectFrom('roles')
        .innerJoin('areas', 'areas.id', 'roles.area_id')
        .select(['roles.user_id', 'roles.role', 'areas.name as area'])
        .where('roles.role', 'in', LEGACY_ROLES)
        .$narrowType<{ role: LegacyRole }>()
        .orderBy('roles.user_id')
        .execute();
    },

    /** Active facility endorsements with whether their holder is ATC-active. */
    async facilityHolders(now: number): Promise<Array<{ user_id: number; facility: string; atc_active: boolean }>> {
      const rows = await db
        .selectFrom('endorsements')
        .select((eb) => ['endorsements.user_id', 'endorsements.rating as facility', atcActive(eb)])
        .where('endorsements.type', '=', 'facility')
        .where(activeEndorsement(now))
        .orderBy('endorsements.user_id')
        .execute();
      return rows.map((r) => ({ user_id: r.user_id, facility: r.facility ?? '', atc_active: Boolean(r.atc_active) }));
    },

    /**
     * Solo or S1 endorsements that may still be listed at `now`: not ended, or ended no earlier
     * than the 14-day cutoff. The exact rule is applied by the caller (domain isListedAsRecent).
     */
    async trainingEndorsements(
      type: 'solo' | 's1',
      now: number,
    ): Promise<{ endorsements: TrainingEndorsementCandidate[]; positions: Array<{ endorsement_id: number; callsign: string }> }> {
      const cutoff = recentCutoff(now);
      const candidate = (eb: Eb) =>
        eb.and([
          eb('endorsements.type', '=', type),
          eb.or([
            eb.and([
              eb('endorsements.revoked', '=', 0),
              eb.or([eb('endorsements.valid_to', 'is', null), eb('endorsements.valid_to', '>', cutoff)]),
            ]),
            eb.and([eb('endorsements.revoked', '=', 1), eb('endorsements.revoked_at', '>', cutoff)]),
          ]),
        ]);
      const endorsements = await db
        .selectFrom('endorsements')
        .select([
          'endorsements.id',
          'endorsements.user_id',
          'endorsements.valid_from',
          'endorsements.valid_to',
          'endorsements.revoked',
          'endorsements.revoked_at',
        ])
        .where(candidate)
        .orderBy('endorsements.user_id')
        .orderBy('endorsements.valid_from')
        .orderBy('endorsements.id')
        .execute();
      const positions = await db
        .selectFrom('endorsement_positions')
        .innerJoin('endorsements', 'endorsements.id', 'endorsement_positions.endorsement_id')
        .innerJoin('positions', 'positions.id', 'endorsement_positions.position_id')
        .select(['endorsement_positions.endorsement_id', 'positions.callsign'])
        .where(candidate)
        .execute();
      return { endorsements, positions };
    },

    /** Every area, and the active examiner endorsements per area with the examiner's first name. */
    async examiners(now: number): Promise<{
      areas: Array<{ id: number; name: string }>;
      examiners: Array<{ area_id: number; user_id: number; first_name: string | null; rating: string | null }>;
    }> {
      const areas = await db.selectFrom('areas').select(['areas.id', 'areas.name']).execute();
      const examiners = await db
        .selectFrom('endorsements')
        .innerJoin('endorsement_areas', 'endorsement_areas.endorsement_id', 'endorsements.id')
        .innerJoin('users', 'users.id', 'endorsements.user_id')
        .select(['endorsement_areas.area_id', 'endorsements.user_id', 'users.first_name', 'endorsements.rating'])
        .where('endorsements.type', '=', 'examiner')
        .where(activeEndorsement(now))
        .orderBy('endorsements.user_id')
        .orderBy('endorsements.valid_from')
        .orderBy('endorsements.id')
        .execute();
      return { areas, examiners };
    },

    /**
     * Active visiting endorsements with their areas, and for their holders the (area, facility)
     * pairs where an active facility endorsement of theirs is required by a position of that area.
     */
    async visiting(now: number): Promise<{
      endorsements: Array<{ id: number; user_id: number; first_name: string | null; rating: string | null }>;
      areas: Array<{ endorsement_id: number; area_id: number; name: string }>;
      facilities: Array<{ user_id: number; area_id: number; facility: string }>;
    }> {
      const endorsements = await db
        .selectFrom('endorsements')
        .innerJoin('users', 'users.id', 'endorsements.user_id')
        .select(['endorsements.id', 'endorsements.user_id', 'users.first_name', 'endorsements.rating'])
        .where('endorsements.type', '=', 'visiting')
        .where(activeEndorsement(now))
        .orderBy('endorsements.user_id')
        .orderBy('endorsements.valid_from')
        .orderBy('endorsements.id')
        .execute();
      const areas = await db
        .selectFrom('endorsement_areas')
        .innerJoin('endorsements', 'endorsements.id', 'endorsement_areas.endorsement_id')
        .innerJoin('areas', 'areas.id', 'endorsement_areas.area_id')
        .select(['endorsement_areas.endorsement_id', 'endorsement_areas.area_id', 'areas.name'])
        .where('endorsements.type', '=', 'visiting')
        .where(activeEndorsement(now))
        .execute();
      const visitors = db
        .selectFrom('endorsements')
        .select('endorsements.user_id')
        .where('endorsements.type', '=', 'visiting')
        .where(activeEndorsement(now));
      const facilities = await db
        .selectFrom('endorsements as f')
        .innerJoin('positions', 'positions.required_facility', 'f.rating')
        .select(['f.user_id', 'positions.area_id', 'f.rating as facility'])
        .distinct()
        .where('f.type', '=', 'facility')
        .where(activeEndorsement(now, 'f'))
        .where('positions.area_id', 'is not', null)
        .where('f.user_id', 'in', visitors)
        .execute();
      return {
        endorsements,
        areas,
        facilities: facilities.map((f) => ({ user_id: f.user_id, area_id: f.area_id!, facility: f.facility ?? '' })),
      };
    },
  };
}

export type DeprecatedRepository = ReturnType<typeof deprecatedRepository>;
