// Conditions other features' queries share with the permission table's (a Mentor's own open trainings).
import { type RawBuilder, sql } from 'kysely';
import { OPEN_TRAINING_MIN_STATUS } from '../members/domain/training-status.js';

/** The training is open (isOpenTraining in src/features/members/domain/training-status.ts). */
export const openTraining: RawBuilder<boolean> = sql<boolean>`${sql.ref('trainings.status')} >= ${OPEN_TRAINING_MIN_STATUS}`;
