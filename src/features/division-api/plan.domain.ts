// Which hub requests an outbox event causes (contract §22), from the event and the facts about its
// member now. Pure: the service reads the facts and stores what this returns.
import type { DivisionOperation } from './driver.domain.js';
import { hubTime } from './driver.domain.js';

export interface MemberFacts {
  mentors: number;
  examiners: number;
  rating: number;
  flags: Set<string>;
}

export interface Planned {
  cid: number;
  about: string;
  op: DivisionOperation | null;
  taskId: number | null;
  /** Set when no acting member could be found: stored refused with this reason. */
  error: string | null;
}

interface EventEndorsement {
  id: number;
  user_id: number;
  type: string;
  rating: string | null;
  positions: string[];
  valid_to: string | null;
  issued_by: number | null;
  revoked: boolean;
}

const S3 = 4;

/** The requests of one event; `flag` changes say what the hub will then believe. */
export function plan(
  type: string,
  data: Record<string, unknown>,
  facts: Map<number, MemberFacts>,
  tiers: Map<string, 'T1' | 'T2'>,
  fallbackActor: number | null,
  ratingValue: (code: string) => number | undefined,
): { requests: Planned[]; flags: Array<{ cid: number; flag: 'mentor' | 'examiner'; on: boolean }> } {
  const requests: Planned[] = [];
  const flags: Array<{ cid: number; flag: 'mentor' | 'examiner'; on: boolean }> = [];
  const acting = (cid: number | null) => cid ?? fallbackActor;
  const noActor = 'No division-wide Administrator to act for Sector: the hub needs a user_cid.';
  const add = (cid: number, about: string, op: DivisionOperation | null, taskId: number | null = null, error: string | null = null) =>
    requests.push({ cid, about, op, taskId, error });

  if (type === 'role.granted' || type === 'role.revoked') {
    const role = data['role'] as { user_id: number; role: string };
    const f = facts.get(role.user_id);
    if (role.role !== 'Mentor' || !f) return { requests, flags };
    // The member who granted or revoked it (read from its audit entry), else the fallback.
    const actor = acting(typeof data['acting_cid'] === 'number' ? data['acting_cid'] : null);
    const told = f.flags.has('mentor');
    if (type === 'role.granted' && !told) {
      add(
        role.user_id,
        `mentor:${role.user_id}`,
        actor === null ? null : { op: 'assign_mentor', cid: role.user_id, actingCid: actor },
        null,
        actor === null ? noActor : null,
      );
      flags.push({ cid: role.user_id, flag: 'mentor', on: true });
    } else if (type === 'role.revoked' && told && f.mentors === 0) {
      add(
        role.user_id,
        `mentor:${role.user_id}`,
        actor === null ? null : { op: 'remove_mentor', cid: role.user_id, actingCid: actor },
        null,
        actor === null ? noActor : null,
      );
      flags.push({ cid: role.user_id, flag: 'mentor', on: false });
    }
  } else if (type.startsWith('endorsement.')) {
    const e = data['endorsement'] as EventEndorsement;
    const f = facts.get(e.user_id);
    const ended = type === 'endorsement.revoked' || type === 'endorsement.expired';
    const instructor = acting(e.issued_by);
    const about = `endorsement:${e.id}`;
    if (e.type === 'examiner' && f) {
      const actor = acting(type === 'endorsement.created' ? e.issued_by : null);
      const error = actor === null ? noActor : null;
      if (type === 'endorsement.created' && f.rating >= S3 && !f.flags.has('examiner')) {
        add(
          e.user_id,
          `examiner:${e.user_id}`,
          actor === null ? null : { op: 'assign_examiner', cid: e.user_id, actingCid: actor },
          null,
          error,
        );
        flags.push({ cid: e.user_id, flag: 'examiner', on: true });
      } else if (ended && f.examiners === 0 && f.flags.has('examiner')) {
        add(
          e.user_id,
          `examiner:${e.user_id}`,
          actor === null ? null : { op: 'remove_examiner', cid: e.user_id, actingCid: actor },
          null,
          error,
        );
        flags.push({ cid: e.user_id, flag: 'examiner', on: false });
      }
    } else if (e.type === 'facility' && e.rating !== null && tiers.has(e.rating)) {
      const tier = tiers.get(e.rating) === 'T1' ? 1 : 2;
      if (type === 'endorsement.created')
        add(
          e.user_id,
          about,
          instructor === null ? null : { op: 'tier_add', tier, cid: e.user_id, position: e.rating, instructorCid: instructor },
          null,
          instructor === null ? noActor : null,
        );
      else if (ended) add(e.user_id, about, { op: 'tier_remove', tier, cid: e.user_id, position: e.rating });
    } else if (e.type === 'solo') {
      for (const position of e.positions) {
        const put = () =>
          add(
            e.user_id,
            about,
            instructor === null || e.valid_to === null
              ? null
              : { op: 'solo_add', cid: e.user_id, position, instructorCid: instructor, expireAt: hubTime(Date.parse(e.valid_to)) },
            null,
            instructor === null ? noActor : e.valid_to === null ? 'A solo endorsement needs an end for the hub.' : null,
          );
        if (type === 'endorsement.created') put();
        else if (ended || type === 'endorsement.updated') add(e.user_id, about, { op: 'solo_remove', cid: e.user_id, position });
        if (type === 'endorsement.updated' && !e.revoked) put();
      }
    }
  } else if (type === 'task.completed') {
    const t = data['task'] as { id: number; type: string; subject_user_id: number; rating?: string; assignee_id: number };
    const rating = t.rating === undefined ? undefined : ratingValue(t.rating);
    if (rating !== undefined && (t.type === 'rating_upgrade' || t.type === 'theory_exam')) {
      const op = t.type === 'rating_upgrade' ? ('upgrade' as const) : ('theory_exam' as const);
      add(t.subject_user_id, `task:${t.id}`, { op, cid: t.subject_user_id, rating, instructorCid: t.assignee_id }, t.id);
    }
  }
  return { requests, flags };
}
