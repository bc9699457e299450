// The endorsements section of an import file.
import type { EndorsementType } from '../../../core/db/schema.js';
import { MAX_CID } from '../../../core/domain/limits.js';
import { isRatingCode } from '../../members/domain/ratings.js';
import { bool, fail, gives, instant, int, notNull, record, reqStr, strList } from './fields.js';
import type { ImportEndorsement } from './plan.js';
import { preview } from './quote.js';

const ENDORSEMENT_FIELDS = [
  'user_id',
  'type',
  'rating',
  'areas',
  'positions',
  'valid_from',
  'valid_to',
  'revoked',
  'revoked_at',
  'issued_by',
  'created_at',
  'expiry_published_at',
] as const;

const ENDORSEMENT_TYPES: Record<string, EndorsementType> = {
  visiting: 'visiting',
  examiner: 'examiner',
  facility: 'facility',
  masc: 'facility',
  solo: 'solo',
  s1: 's1',
};

export function parseEndorsement(e: unknown, path: string): ImportEndorsement {
  const o = record(e, path, ENDORSEMENT_FIELDS);
  const type = ENDORSEMENT_TYPES[String(o.type)];
  if (!type) fail(`${path}.type`, `must be one of visiting, examiner, facility, masc, solo, s1 (got ${preview(o.type)})`);
  const set: ImportEndorsement['set'] = {};
  // solo and s1 have no rating: whatever is given is not stored.
  if (gives(o, 'rating') && (type === 'visiting' || type === 'examiner')) {
    notNull(o, 'rating', path);
    if (typeof o.rating !== 'string' || !isRatingCode(o.rating)) fail(`${path}.rating`, `unknown rating ${preview(o.rating)}`);
    set.rating = o.rating as string;
  } else if (gives(o, 'rating') && type === 'facility') {
    notNull(o, 'rating', path);
    set.rating = reqStr(o, 'rating', path);
  }
  const validFrom = instant(o, 'valid_from', path, false) as number;
  if (gives(o, 'valid_to')) {
    const validTo = instant(o, 'valid_to', path, true);
    if (validTo !== null && validTo <= validFrom) fail(`${path}.valid_to`, 'must be after valid_from');
    set.valid_to = validTo;
  }
  if (gives(o, 'revoked')) set.revoked = bool(o, 'revoked', path);
  if (gives(o, 'revoked_at')) {
    const revokedAt = instant(o, 'revoked_at', path, true);
    // Only with revoked: true in the same record, which the stored row cannot stand in for.
    if (revokedAt !== null && set.revoked !== true) fail(`${path}.revoked_at`, 'must be null unless revoked is true');
    if (set.revoked !== undefined) set.revoked_at = revokedAt;
  }
  if (gives(o, 'issued_by')) set.issued_by = o.issued_by === null ? null : int(o, 'issued_by', path, 1, MAX_CID);
  // When Sector recorded it, and when its expiry was published (null: not yet; an ended endorsement
  // then gets its endorsement.expired event).
  if (gives(o, 'created_at')) {
    notNull(o, 'created_at', path);
    set.created_at = instant(o, 'created_at', path, false)!;
  }
  if (gives(o, 'expiry_published_at')) set.expiry_published_at = instant(o, 'expiry_published_at', path, true);
  const out: ImportEndorsement = { user_id: int(o, 'user_id', path, 1, MAX_CID), type: type!, valid_from: validFrom, set, path };
  if (gives(o, 'areas')) out.areas = strList(o, 'areas', path);
  if (gives(o, 'positions')) out.positions = strList(o, 'positions', path).map((c) => c.toUpperCase());
  return out;
}
