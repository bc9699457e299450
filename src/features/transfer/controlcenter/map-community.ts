// Control Center's votes, sweatbox bookings and facility tiers in Sector's import format (contracts
// §19, §22, §23). Pure: each record is checked as the import format's, an unfit one skipped with its
// reason. The ballot stays secret: Control Center keeps who voted (`user_vote`) beside the count per
// option; Sector keeps the same two things apart, and nothing maps a voter to an option.
import { ymdHis } from '../../../core/domain/time.js';
import { parseFacility } from '../import/facilities.js';
import type { ImportFacility, ImportSweatboxSession, ImportVote } from '../import/plan.js';
import { parseSweatboxSession } from '../import/sweatbox.js';
import { parseVote } from '../import/votes.js';
import type { ControlCenterData, Row } from './read.js';
import { fits, flag, instant, kind, type KindReport, num, rowLabel, str } from './values.js';

interface Known {
  userIds: Set<number>;
  callsignOf: Map<number, string>;
}

const TIERS = new Set(['T1', 'T2']);
const countVoters = (n: number) => `${n} ${n === 1 ? 'voter' : 'voters'}`;
const ms = (v: unknown) => Date.parse(`${String(v).replace(' ', 'T')}Z`);

/** Who may vote: Control Center's two flags. Sector's `active` is of members only. */
function eligibility(v: Row): { value: ImportVote['eligibility']; note: string | null } {
  if (flag(v.require_active))
    return { value: 'active', note: flag(v.require_member) ? null : 'required ATC activity but not membership: Sector asks both' };
  return { value: flag(v.require_member) ? 'members' : 'all', note: null };
}

export function planVotes(cc: ControlCenterData, report: Record<string, KindReport>, known: Known): ImportVote[] {
  const r = (report.votes = kind(cc.votes.length));
  const options = new Map<number, Row[]>();
  for (const o of cc.voteOptions) options.set(num(o.vote_id), [...(options.get(num(o.vote_id)) ?? []), o]);
  const voters = new Map<number, number[]>();
  for (const u of cc.voteUsers) voters.set(num(u.vote_id), [...(voters.get(num(u.vote_id)) ?? []), num(u.user_id)]);
  const out: ImportVote[] = [];
  const seen = new Set<string>();
  for (const v of cc.votes) {
    const row = `vote ${num(v.id)}`;
    const closesAt = instant(v.end_at);
    const createdAt = instant(v.created_at) ?? closesAt;
    const key = `${String(v.question).trim()}/${closesAt}`;
    if (seen.has(key)) {
      r.skipped.push({ row, reason: 'same question and closing time as an earlier vote' });
      continue;
    }
    const who = eligibility(v);
    const cast = voters.get(num(v.id)) ?? [];
    const moved = cast.filter((id) => known.userIds.has(id));
    // Control Center keeps no time of a ballot: the day the vote was created stands for it.
    const day = (createdAt ?? '').slice(0, 10);
    const record = {
      question: str(v.question),
      closes_at: closesAt,
      eligibility: who.value,
      created_by: null,
      closed_at: flag(v.closed) ? closesAt : null,
      created_at: createdAt,
      updated_at: instant(v.updated_at) ?? createdAt,
      options: (options.get(num(v.id)) ?? []).map((o) => ({ text: str(o.option), count: num(o.voted) })),
      voters: moved.map((user_id) => ({ user_id, voted_on: day })),
    };
    if (!fits(r, row, rowLabel('votes', v.id), () => out.push(parseVote(record, rowLabel('votes', v.id))))) continue;
    seen.add(key);
    const notes = [
      ...(who.note ? [who.note] : []),
      ...(moved.length > 0
        ? [`its ${countVoters(moved.length)} recorded as voting on ${day} (Control Center keeps no time of a ballot)`]
        : []),
      ...(moved.length < cast.length
        ? [
            `${countVoters(cast.length - moved.length)} not imported (${cast.length - moved.length === 1 ? 'their user is' : 'their users are'} not)`,
          ]
        : []),
    ];
    if (notes.length > 0) r.changed.push({ row, reason: notes.join('; ') });
  }
  r.imported = out.length;
  return out;
}

/** A sweatbook's start and end: 7.x keeps times, 6.x a day and two clock times (an end before the start is on the next day). */
function period(s: Row): { start: number; end: number; nextDay: boolean } {
  if (s.time_start !== undefined) return { start: ms(s.time_start), end: ms(s.time_end), nextDay: false };
  const start = ms(`${String(s.date).slice(0, 10)} ${String(s.start_at)}`);
  const end = ms(`${String(s.date).slice(0, 10)} ${String(s.end_at)}`);
  return end <= start ? { start, end: end + 86_400_000, nextDay: true } : { start, end, nextDay: false };
}

export function planSweatbox(cc: ControlCenterData, report: Record<string, KindReport>, known: Known): ImportSweatboxSession[] {
  const r = (report.sweatbox = kind(cc.sweatbooks.length));
  const planned: Array<{ session: ImportSweatboxSession; id: number; created: number }> = [];
  for (const s of cc.sweatbooks) {
    const id = num(s.id);
    const row = `sweatbook ${id}`;
    const callsign = known.callsignOf.get(num(s.position_id));
    if (!known.userIds.has(num(s.user_id))) r.skipped.push({ row, reason: `user ${String(s.user_id)} is not imported` });
    else if (callsign === undefined) r.skipped.push({ row, reason: `position ${String(s.position_id)} does not exist` });
    else {
      const p = period(s);
      if (Number.isNaN(p.start) || Number.isNaN(p.end)) {
        r.skipped.push({ row, reason: 'no valid time' });
        continue;
      }
      const record = {
        callsign,
        time_start: ymdHis(p.start),
        time_end: ymdHis(p.end),
        user_id: num(s.user_id),
        notes: str(s.mentor_notes) ?? '',
        created_at: instant(s.created_at),
        updated_at: instant(s.updated_at),
      };
      const label = rowLabel('sweatbooks', s.id);
      let session: ImportSweatboxSession | undefined;
      if (!fits(r, row, label, () => (session = parseSweatboxSession(record, label)))) continue;
      if (p.nextDay) r.changed.push({ row, reason: 'ends before it starts: the end taken as the next day' });
      planned.push({ session: session!, id, created: Date.parse(record.created_at ?? '') || p.start });
    }
  }
  // Sessions of one position may not overlap in Sector: of overlapping ones the later-made is skipped.
  const kept = new Map<string, ImportSweatboxSession[]>();
  const out: ImportSweatboxSession[] = [];
  for (const p of planned.sort((a, b) => a.created - b.created || a.id - b.id)) {
    const same = kept.get(p.session.callsign) ?? [];
    const clash = same.find((k) => k.time_start < p.session.time_end && p.session.time_start < k.time_end);
    if (clash) {
      r.skipped.push({
        row: `sweatbook ${p.id}`,
        reason: `overlaps an earlier-made session of ${clash.callsign} from ${ymdHis(clash.time_start)}`,
      });
      continue;
    }
    kept.set(p.session.callsign, [...same, p.session]);
    out.push(p.session);
  }
  r.imported = out.length;
  return out;
}

/** Facility endorsements' `endorsement_type` (T1, T2) becomes the tier of the facility of that name. */
export function planTiers(cc: ControlCenterData, report: Record<string, KindReport>): ImportFacility[] {
  const typed = cc.ratings.filter((x) => x.vatsim_rating == null && str(x.endorsement_type) !== null);
  const r = (report.facility_tiers = kind(typed.length));
  const out: ImportFacility[] = [];
  for (const x of typed) {
    const name = String(x.name).trim();
    const tier = str(x.endorsement_type)!.toUpperCase();
    const row = `rating ${num(x.id)} ${name}`;
    if (!TIERS.has(tier)) r.skipped.push({ row, reason: `endorsement_type ${tier} is not a tier (T1, T2)` });
    else if (out.some((f) => f.name === name)) r.skipped.push({ row, reason: 'same name as an earlier facility rating' });
    else fits(r, row, rowLabel('ratings', x.id), () => out.push(parseFacility({ name, tier }, rowLabel('ratings', x.id))));
  }
  r.imported = out.length;
  return out;
}
