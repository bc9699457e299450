// The facilities section of an import file (contract §22): a facility name's tier and description.
import { FACILITY_DESCRIPTION_MAX, FACILITY_TIERS } from '../../positions/index.js';
import { fail, gives, instant, nullableStr, record, reqStr } from './fields.js';
import type { ImportFacility } from './plan.js';

const FACILITY_FIELDS = ['name', 'tier', 'description', 'updated_at'] as const;

export function parseFacility(f: unknown, path: string): ImportFacility {
  const o = record(f, path, FACILITY_FIELDS);
  const tier = nullableStr(o, 'tier', path, 2);
  if (tier !== null && !(FACILITY_TIERS as readonly string[]).includes(tier))
    fail(`${path}.tier`, `must be ${FACILITY_TIERS.join(', ')} or null`);
  return {
    name: reqStr(o, 'name', path, 100),
    tier: tier as ImportFacility['tier'],
    // Not given: a stored description stays.
    description: gives(o, 'description') ? nullableStr(o, 'description', path, FACILITY_DESCRIPTION_MAX) : undefined,
    updated_at: gives(o, 'updated_at') ? instant(o, 'updated_at', path, true) : null,
    path,
  };
}
