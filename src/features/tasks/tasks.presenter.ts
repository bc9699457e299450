// A task as the API, its events and the export show it (contract §21).
import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import { ratingCode } from '../members/domain/ratings.js';
import type { TaskRow } from './tasks.repository.js';
import type { Task } from './tasks.schema.js';

export function presentTask(t: TaskRow): Task {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    subject_user_id: t.subject_user_id,
    training_id: t.training_id,
    ...(t.rating !== null ? { rating: ratingCode(t.rating) } : {}),
    ...(t.message !== null ? { message: t.message } : {}),
    creator_id: t.creator_id,
    assignee_id: t.assignee_id,
    created_at: isoMicros(t.created_at),
    closed_at: isoMicrosOrNull(t.closed_at),
    ...(t.closed_message !== null ? { closed_message: t.closed_message } : {}),
    division_api:
      t.division_api_state === null
        ? null
        : { state: t.division_api_state, ...(t.division_api_error !== null ? { error: t.division_api_error } : {}) },
  };
}
