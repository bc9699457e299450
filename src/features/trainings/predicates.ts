// Conditions over trainings that other features' queries use too (the users list, roles).
import { type RawBuilder, sql } from 'kysely';
import { OPEN_TRAINING_MIN_STATUS } from './status.domain.js';

/** The training is open (isOpenTraining in src/features/trainings/status.domain.ts). */
export const openTraining: RawBuilder<boolean> = sql<boolean>`${sql.ref('trainings.status')} >= ${OPEN_TRAINING_MIN_STATUS}`;
