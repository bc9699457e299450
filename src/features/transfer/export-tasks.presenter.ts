// The tasks (contract §21) and feedback (§23) of the export, with every field the import reads of
// them (import/tasks.ts, import/feedback.ts), by id; each section written only when there are any,
// so the export of a division without them is as it was.
import { ratingCode } from '../members/domain/ratings.js';
import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import type { DivisionRows } from './export.repository.js';
import { by, groupBy } from './export-order.presenter.js';

export function exportTasksAndFeedback(rows: DivisionRows, area: (id: number) => string, callsign: (id: number) => string) {
  // A task names its training by the training's key: the subject's training in that area from then.
  const training = new Map(rows.trainings.map((t) => [t.id, { area: area(t.area_id), created_at: isoMicros(t.created_at) }]));
  const comments = groupBy(rows.feedbackComments, (c) => c.feedback_id);
  return {
    ...(rows.tasks.length === 0
      ? {}
      : {
          tasks: [...rows.tasks].sort(by((t) => t.id)).map((t) => ({
            id: t.id,
            type: t.type,
            status: t.status,
            subject_user_id: t.subject_user_id,
            training: t.training_id === null ? null : training.get(t.training_id)!,
            rating: t.rating === null ? null : ratingCode(t.rating),
            message: t.message,
            creator_id: t.creator_id,
            assignee_id: t.assignee_id,
            created_at: isoMicros(t.created_at),
            closed_at: isoMicrosOrNull(t.closed_at),
            closed_message: t.closed_message,
            division_api: t.division_api_state === null ? null : { state: t.division_api_state, error: t.division_api_error },
          })),
        }),
    ...(rows.feedback.length === 0
      ? {}
      : {
          feedback: [...rows.feedback].sort(by((f) => f.id)).map((f) => ({
            id: f.id,
            sender_id: f.sender_id,
            controller: f.controller,
            position: f.position_id === null ? null : callsign(f.position_id),
            text: f.text,
            actioned: f.actioned === 1,
            comments: [...(comments.get(f.id) ?? [])].sort(by((c) => c.id)).map((c) => ({
              author_id: c.author_id,
              text: c.text,
              created_at: isoMicros(c.created_at),
            })),
            created_at: isoMicros(f.created_at),
            updated_at: isoMicros(f.updated_at),
          })),
        }),
  };
}
