// A member erased on request (contract §24): every role they hold is revoked as any revocation is
// (an audit entry and a role.revoked event each, so the division's hub hears of a mentor leaving).
import type { Write } from '../../app/deps.js';
import { type AuditActor, userTarget } from '../audit/domain/index.js';

/** Revokes the member's roles in the erase's write; returns how many. */
export async function revokeAllRoles(w: Write, cid: number, actor: AuditActor): Promise<number> {
  // What this write removed, not what a read saw: a revocation made meanwhile is not told twice.
  const held = await w.repos.roles.revokeAll(cid);
  if (held.length === 0) return 0;
  await w.audit(
    actor,
    held.map((r) => ({ action: 'role.revoked', target: userTarget(cid), before: null, after: { role: r.role, area: r.area } })),
  );
  await w.publish(held.map((r) => ({ type: 'role.revoked' as const, data: { role: r } })));
  return held.length;
}
