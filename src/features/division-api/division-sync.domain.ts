// The reconcile with the division's hub (contract §22, division:sync), pure: the hub's answers
// parsed strictly (a shape it does not know stops the run rather than reading as "empty"), and
// what must be added and removed so that the hub holds exactly what Sector wants.
import { hubData } from './driver.domain.js';

/** A tier endorsement as the hub lists it. */
export interface HubTierRecord {
  tier: 1 | 2;
  id: number;
  user_cid: number;
  position: string;
}

/** An active tiered facility endorsement in Sector: `position` is the facility's name. */
export interface WantedTier {
  tier: 1 | 2;
  user_cid: number;
  position: string;
  /** The endorsement's issuer (null: unknown; the division-wide Administrator acts instead). */
  issued_by: number | null;
}

export type TierAdd = Omit<HubTierRecord, 'id'> & { instructor_cid: number };

export interface SyncPlan {
  roster: { add: number[]; remove: number[] };
  tiers: { add: TierAdd[]; remove: HubTierRecord[] };
  /** Members whose tier endorsements this run leaves alone, with the reason. */
  skipped: Array<{ user_cid: number; reason: string }>;
}

/** The hub's requests a reconcile makes; each throws HubFailure when the hub does not do it. */
export interface DivisionHub {
  roster(signal: AbortSignal): Promise<number[]>;
  tiers(tier: 1 | 2, signal: AbortSignal): Promise<HubTierRecord[]>;
  addMember(cid: number, signal: AbortSignal): Promise<void>;
  removeMember(cid: number, signal: AbortSignal): Promise<void>;
  addTier(add: TierAdd, signal: AbortSignal): Promise<void>;
  removeTier(record: HubTierRecord, signal: AbortSignal): Promise<void>;
}

/** The hub refused, failed or could not be reached, or answered in a shape it does not use: one line. */
export class HubFailure extends Error {}

const cidOf = (x: unknown): number | null => {
  const v = typeof x === 'object' && x !== null ? (x as Record<string, unknown>)['user_cid'] : x;
  const n = typeof v === 'string' && /^\d{1,12}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * The roster: `{"data": {"controllers": [cid]}}`, the older `{"data": {"roster_members":
 * [{"user_cid"}]}}`, either without `data`, or a bare list. Null: not a roster.
 */
export function parseRoster(body: unknown): number[] | null {
  const data = hubData(body);
  let list: unknown = data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const d = data as Record<string, unknown>;
    list = d['controllers'] ?? d['roster_members'];
  }
  if (!Array.isArray(list)) return null;
  const cids = list.map(cidOf);
  return cids.includes(null) ? null : [...new Set(cids as number[])];
}

/** A tier list: `{"data": [{"id", "user_cid", "position", …}]}` or bare. Null: not such a list. */
export function parseTierList(tier: 1 | 2, body: unknown): HubTierRecord[] | null {
  const list = hubData(body);
  if (!Array.isArray(list)) return null;
  const out: HubTierRecord[] = [];
  for (const r of list) {
    if (typeof r !== 'object' || r === null) return null;
    const rec = r as Record<string, unknown>;
    const id = Number(rec['id']);
    const cid = cidOf(rec);
    if (!Number.isSafeInteger(id) || cid === null || typeof rec['position'] !== 'string') return null;
    out.push({ tier, id, user_cid: cid, position: rec['position'] });
  }
  return out;
}

/**
 * What makes the hub's roster exactly `wantedRoster` and its tier endorsements exactly the wanted
 * ones of those members (a duplicate on the hub is removed). Members in `busy` keep their tier
 * records as they are: an open request owes the hub a change of them (see the service).
 */
export function planSync(
  hub: { roster: number[]; tiers: HubTierRecord[] },
  wanted: { roster: number[]; tiers: WantedTier[] },
  busy: ReadonlySet<number>,
  fallbackActor: number | null,
): SyncPlan {
  const want = new Set(wanted.roster);
  const onHub = new Set(hub.roster);
  const key = (t: { tier: number; user_cid: number; position: string }) => `${t.tier}|${t.user_cid}|${t.position}`;
  const wantedTiers = new Map<string, WantedTier>();
  for (const t of wanted.tiers) if (want.has(t.user_cid) && !wantedTiers.has(key(t))) wantedTiers.set(key(t), t);
  const kept = new Set<string>();
  const remove: HubTierRecord[] = [];
  for (const r of [...hub.tiers].sort((a, b) => a.id - b.id)) {
    if (busy.has(r.user_cid)) continue;
    if (wantedTiers.has(key(r)) && !kept.has(key(r))) kept.add(key(r));
    else remove.push(r);
  }
  const add: TierAdd[] = [];
  const skipped = new Map<number, string>();
  for (const cid of busy)
    if (hub.tiers.some((r) => r.user_cid === cid) || wanted.tiers.some((t) => t.user_cid === cid))
      skipped.set(cid, 'a request about a tier endorsement of theirs is still pending or refused (division:status)');
  for (const [k, t] of wantedTiers) {
    if (kept.has(k) || busy.has(t.user_cid)) continue;
    const instructor = t.issued_by ?? fallbackActor;
    if (instructor === null) skipped.set(t.user_cid, 'no division-wide Administrator to name as instructor_cid');
    else add.push({ tier: t.tier, user_cid: t.user_cid, position: t.position, instructor_cid: instructor });
  }
  const byCid = (a: number, b: number) => a - b;
  return {
    roster: { add: [...want].filter((c) => !onHub.has(c)).sort(byCid), remove: [...onHub].filter((c) => !want.has(c)).sort(byCid) },
    tiers: { add: add.sort((a, b) => a.user_cid - b.user_cid || a.tier - b.tier || a.position.localeCompare(b.position)), remove },
    skipped: [...skipped].map(([user_cid, reason]) => ({ user_cid, reason })).sort((a, b) => a.user_cid - b.user_cid),
  };
}

/** §15's guard: more than half of what the hub holds would go, a broken read most likely. Null: none. */
export function tooManyRemoved(plan: SyncPlan, hub: { roster: number; tiers: number }): string | null {
  const over = (removed: number, held: number) => held > 0 && removed * 2 > held;
  const parts = [
    over(plan.roster.remove.length, hub.roster) ? `${plan.roster.remove.length} of the hub's ${hub.roster} roster members` : null,
    over(plan.tiers.remove.length, hub.tiers) ? `${plan.tiers.remove.length} of its ${hub.tiers} tier endorsements` : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  return `the sync would remove ${parts.join(' and ')} (more than half): refused, nothing changed (npx sector division:sync --force applies it)`;
}
