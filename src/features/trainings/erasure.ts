// A member erased on request (contract §24): their open trainings are closed by Sector, with the
// timeline entry, audit entry and event of any closing, and no mail (they have no address any more).
import type { Write } from '../../app/deps.js';
import { type MailSite, recordTrainingChanges } from './changes.js';
import { STATUS } from './domain.js';

export const ERASURE_REASON = 'Closed due to a data deletion request';

/** Closes the member's open trainings in the erase's write; returns how many. */
export async function closeTrainingsOnErasure(w: Write, site: MailSite, cid: number): Promise<number> {
  const ids = await w.repos.trainings.lockOpenOf(cid);
  if (ids.length === 0) return 0;
  const before = await w.repos.trainings.list({ ids });
  await w.repos.trainings.closeBySystem(ids, w.at, ERASURE_REASON);
  const was = new Map(before.map((t) => [t.id, t]));
  const after = (await w.repos.trainings.list({ ids })).filter((t) => t.status === STATUS.CLOSED_BY_SYSTEM);
  await recordTrainingChanges(
    w,
    site,
    after.map((t) => ({
      actor: { kind: 'system' },
      before: was.get(t.id)!,
      after: t,
      timeline: [{ action: 'status', detail: { from: was.get(t.id)!.status, to: t.status, reason: ERASURE_REASON } }],
      event: { type: 'training.closed' },
      mail: null,
    })),
  );
  return after.length;
}
