// The CPT upload (contract §22), queued in the write that takes the outbox's events: a graded
// `training.examination` puts its examination in waiting, and every run queues the upload of each
// waiting one that now carries a non-hidden file (adding a file writes no event), once.
import type { Write } from '../../app/deps.js';
import type { DivisionOperation } from './driver.domain.js';

/** Queues the uploads now owed; true when it queued some. */
export async function queueCpt(
  w: Write,
  events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  now: number,
): Promise<boolean> {
  const graded = events.flatMap(({ type, data }) => {
    const x = data['examination'] as { id?: unknown } | undefined;
    return type === 'training.examination' && data['state'] === 'graded' && typeof x?.id === 'number' ? [x.id] : [];
  });
  await w.repos.divisionCpt.graded(graded, now);
  const due = await w.repos.divisionCpt.takeDue(now);
  await w.repos.divisionRequests.add(
    due.map((x) => {
      const op: DivisionOperation = {
        op: 'cpt',
        cid: x.user_id,
        examinationId: x.examination_id,
        examinerCid: x.examiner_id,
        position: x.position,
        pass: x.result === 'PASSED',
      };
      return { member_cid: x.user_id, about: `cpt:${x.examination_id}`, operation: JSON.stringify(op), task_id: null, error: null };
    }),
    now,
  );
  return due.length > 0;
}
