import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import type { EndorsementRecord } from './endorsements.repository.js';
import type { Endorsement } from './endorsements.schema.js';

export function presentEndorsement(e: EndorsementRecord): Endorsement {
  return {
    id: e.id,
    user_id: e.user_id,
    type: e.type,
    rating: e.rating,
    areas: e.areas,
    positions: e.positions,
    valid_from: isoMicros(e.valid_from),
    valid_to: isoMicrosOrNull(e.valid_to),
    revoked: e.revoked === 1,
    revoked_at: e.revoked === 1 ? isoMicrosOrNull(e.revoked_at) : null,
    created_at: isoMicros(e.created_at),
    issued_by: e.issued_by,
  };
}
