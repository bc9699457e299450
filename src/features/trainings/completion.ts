// Completing a training (contract §18): every facility name it was for becomes an active facility
// endorsement (an older active one of the same name is revoked), and the activity grace of §16
// starts in its area — in the completion's own transaction.
import type { AuditActor } from '../audit/domain/index.js';
import { endorsementTarget } from '../audit/domain/index.js';
import { ratingValue } from '../members/domain/ratings.js';
import { presentEndorsement } from '../endorsements/endorsements.view.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { Write } from '../../app/deps.js';

/** Issues the training's facility endorsements and starts the grace; returns the timeline entries. */
export async function completeTraining(
  w: Write,
  t: TrainingRecord,
  actor: AuditActor,
): Promise<Array<{ action: string; detail: Record<string, unknown> }>> {
  const repo = w.repos.endorsements;
  const facilities = t.ratings.filter((r) => ratingValue(r) === undefined);
  // The user's lock, as an issue or revoke takes it, before reading what they hold.
  await repo.lockUser(t.user_id);
  const held = await repo.unended(t.user_id, 'facility', w.at);
  const timeline: Array<{ action: string; detail: Record<string, unknown> }> = [];
  for (const name of facilities) {
    // Active ones of the name, and any issued while this write waited for the lock: those start
    // after this write's time, yet are older than the completion.
    for (const old of held.filter((e) => e.rating === name && (e.valid_from <= w.at || e.created_at >= w.at))) {
      await repo.revoke(old.id, w.at);
      const revoked = presentEndorsement((await repo.find(old.id))!);
      await w.audit(actor, [{ action: 'endorsement.revoked', target: endorsementTarget(old.id), before: null, after: { revoked: true } }]);
      await w.publish([{ type: 'endorsement.revoked', data: { endorsement: revoked } }]);
    }
    // A user's endorsements of one type start at distinct instants: the first free one from now.
    let from = w.at;
    while (await repo.startingAt(t.user_id, 'facility', from)) from++;
    const id = await repo.insert(
      {
        user_id: t.user_id,
        type: 'facility',
        rating: name,
        valid_from: from,
        valid_to: null,
        issued_by: actor.kind === 'member' ? actor.cid : null,
        created_at: w.at,
      },
      [],
      [],
    );
    const issued = presentEndorsement((await repo.find(id))!);
    await w.audit(actor, [{ action: 'endorsement.created', target: endorsementTarget(id), before: null, after: issued }]);
    await w.publish([{ type: 'endorsement.created', data: { endorsement: issued } }]);
    timeline.push({ action: 'endorsement', detail: { id, type: 'facility', rating: name } });
  }
  await w.repos.trainings.startGrace(t.user_id, t.area_id, w.at);
  timeline.push({ action: 'grace', detail: { area: t.area } });
  return timeline;
}
