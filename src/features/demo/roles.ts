// Staff roles per area: a few administrators and moderators, mentors and buddies in proportion to members.
import { RATINGS } from '../members/domain/ratings.js';
import { AREAS } from './catalog.js';
import type { Person } from './people.js';
import type { Rng } from './random.js';
import type { DemoRole } from './types.js';

/** Up to `count` distinct people, in a seeded order. */
function sample(rng: Rng, pool: Person[], count: number): Person[] {
  const copy = pool.slice();
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = rng.int(i, copy.length - 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

export function generateRoles(rng: Rng, people: Person[]): DemoRole[] {
  const roles: DemoRole[] = [];
  const seen = new Set<string>();
  const grant = (p: Person, area: string, role: string): void => {
    if (seen.has(`${p.id}|${area}|${role}`)) return;
    seen.add(`${p.id}|${area}|${role}`);
    roles.push({ user_id: p.id, area, role });
  };

  let director: Person | undefined;
  for (const area of AREAS) {
    const members = people.filter((p) => p.member && p.area === area);
    if (members.length === 0) continue;
    const atLeast = (value: number): Person[] => {
      const qualified = members.filter((p) => p.value >= value);
      return qualified.length > 0 ? qualified : members;
    };
    const n = members.length;
    const staff = atLeast(RATINGS.C1);
    const admins = sample(rng, staff, Math.max(1, Math.round(n / 200)));
    for (const p of admins) grant(p, area, 'Administrator');
    for (const p of sample(rng, staff, Math.max(2, Math.round(n / 80)))) grant(p, area, 'Moderator');
    for (const p of sample(rng, atLeast(RATINGS.S3), Math.max(2, Math.round(n * 0.07)))) grant(p, area, 'Mentor');
    for (const p of sample(rng, atLeast(RATINGS.S2), Math.max(1, Math.round(n * 0.04)))) grant(p, area, 'Buddy');
    director ??= admins[0];
  }
  // The division's director administers every area.
  if (director) for (const area of AREAS) grant(director, area, 'Administrator');
  return roles;
}
