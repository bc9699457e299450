// The trainings section of an import file.
import { MAX_CID } from '../domain/limits.js';
import { isRatingCode, RATINGS } from '../domain/ratings.js';
import { fail, gives, instant, int, notNull, record, reqStr, strList } from './fields.js';
import type { ImportTraining } from './plan.js';
import { quote } from './quote.js';

const TRAINING_FIELDS = ['user_id', 'area', 'type', 'status', 'created_at', 'started_at', 'ratings'] as const;

export const TRAINING_TYPES = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'];

export function parseTraining(t: unknown, path: string): ImportTraining {
  const o = record(t, path, TRAINING_FIELDS);
  const set: ImportTraining['set'] = {};
  if (gives(o, 'type')) {
    notNull(o, 'type', path);
    const type = reqStr(o, 'type', path);
    if (!TRAINING_TYPES.includes(type)) fail(`${path}.type`, `must be one of ${TRAINING_TYPES.join(', ')}`);
    set.type = type;
  }
  let ratings: number[] | undefined;
  if (gives(o, 'ratings')) {
    ratings = strList(o, 'ratings', path).map((code, j) => {
      if (!isRatingCode(code)) fail(`${path}.ratings[${j}]`, `unknown rating ${quote(code)}`);
      return RATINGS[code as keyof typeof RATINGS];
    });
  }
  const userId = int(o, 'user_id', path, 1, MAX_CID);
  const area = reqStr(o, 'area', path);
  if (gives(o, 'status')) {
    notNull(o, 'status', path);
    set.status = int(o, 'status', path, -4, 3);
  }
  const createdAt = instant(o, 'created_at', path, false) as number;
  if (gives(o, 'started_at')) set.started_at = instant(o, 'started_at', path, true);
  const out: ImportTraining = { user_id: userId, area, created_at: createdAt, set, path };
  if (ratings !== undefined) out.ratings = ratings;
  return out;
}
