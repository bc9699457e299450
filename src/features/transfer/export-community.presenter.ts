// Votes, sweatbox sessions and members' settings in the export (contract §23, §24), as the import reads
// them (import/votes.ts, sweatbox.ts, settings.ts). Each section is written only when there are any,
// so an export of a division without them is as it was. A vote carries its counts and who voted
// (member and day), as Sector stores them: never which option a member chose.
import { isoMicros, isoMicrosOrNull, ymdHis } from '../../core/domain/time.js';
import type { DivisionRows } from './export.repository.js';
import { by, byText, groupBy } from './export-order.presenter.js';
import { UNKNOWN_CREATOR } from './import/votes.js';

export function exportCommunity(rows: DivisionRows, callsign: (positionId: number) => string) {
  const options = groupBy(rows.voteOptions, (o) => o.vote_id);
  const voters = groupBy(rows.voteVoters, (v) => v.vote_id);
  const choices = groupBy(rows.mailChoices, (c) => c.user_id);
  const looks = new Map(rows.memberSettings.map((s) => [s.user_id, s]));
  const members = [...new Set([...looks.keys(), ...choices.keys()])];
  const votes = rows.votes
    .map((v) => ({
      question: v.question,
      closes_at: isoMicros(v.closes_at),
      eligibility: v.eligibility,
      created_by: v.created_by === UNKNOWN_CREATOR ? null : v.created_by,
      closed_at: isoMicrosOrNull(v.closed_at),
      created_at: isoMicros(v.created_at),
      updated_at: isoMicros(v.updated_at),
      options: (options.get(v.id) ?? []).sort(by((o) => o.position)).map((o) => ({ text: o.text, count: o.count })),
      voters: (voters.get(v.id) ?? []).sort(by((x) => x.user_id)).map((x) => ({ user_id: x.user_id, voted_on: x.voted_on })),
      key: v.closes_at,
    }))
    .sort(
      by(
        (v) => v.key,
        (v) => v.question,
      ),
    )
    .map(({ key: _key, ...v }) => v);
  const sweatbox = rows.sweatbox
    .map((s) => ({
      callsign: callsign(s.position_id),
      time_start: ymdHis(s.time_start),
      time_end: ymdHis(s.time_end),
      user_id: s.user_id,
      notes: s.notes,
      created_at: isoMicros(s.created_at),
      updated_at: isoMicros(s.updated_at),
      key: s.time_start,
    }))
    .sort(
      by(
        (s) => s.callsign,
        (s) => s.key,
      ),
    )
    .map(({ key: _key, ...s }) => s);
  const settings = members
    .sort((a, b) => a - b)
    .map((id) => ({
      user_id: id,
      look: looks.get(id)?.look ?? 'device',
      mail: Object.fromEntries((choices.get(id) ?? []).map((c) => [c.kind, c.enabled === 1] as const).sort((a, b) => byText(a[0], b[0]))),
      updated_at: isoMicrosOrNull(looks.get(id)?.updated_at ?? null),
    }));
  return {
    ...(votes.length === 0 ? {} : { votes }),
    ...(sweatbox.length === 0 ? {} : { sweatbox }),
    ...(settings.length === 0 ? {} : { settings }),
  };
}
