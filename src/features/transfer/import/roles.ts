// The roles section of an import file.
import { MAX_CID } from '../../../core/domain/limits.js';
import { int, nullableStr, record, reqStr } from './fields.js';
import type { ImportRole } from './plan.js';

const ROLE_FIELDS = ['user_id', 'area', 'role'] as const;

export function parseRole(r: unknown, path: string): ImportRole {
  const o = record(r, path, ROLE_FIELDS);
  const role = reqStr(o, 'role', path, 50);
  // Only an Administrator is held division-wide (area null, contract §17).
  const area = role === 'Administrator' ? nullableStr(o, 'area', path) : reqStr(o, 'area', path);
  return { user_id: int(o, 'user_id', path, 1, MAX_CID), area, role, path };
}
