// The activity mails (contract §24): a member whose activity in an area lapses within 30 days
// (hours needed and by when) and when it has lapsed, once per (member, area, lapse date); the
// area's Moderators when a member not active there connects to one of its positions, once per
// controlling session, with the event activity.inactive_online.
import type { Write } from '../../app/deps.js';
import { isoMicros } from '../../core/domain/time.js';
import { type NoticeSite, sendNotices } from '../notices/index.js';
import { inactiveOnlineKey } from './activity-notices.repository.js';
import { type ActivityRule, periodStart } from './domain.js';
import { lapseOf } from './lapse.domain.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const nameOf = (first: string | null, last: string | null, cid: number) => `${[first, last].filter(Boolean).join(' ') || 'CID'} (${cid})`;

/** Sessions alerted per poll: more wait for the next. */
const ALERT_BATCH = 200;

/** The members whose activity lapsed in this recompute. */
export async function mailLapsed(
  w: Write,
  site: NoticeSite,
  lapsed: ReadonlyArray<{ user_id: number; area_id: number; area: string }>,
  rule: ActivityRule,
): Promise<void> {
  await sendNotices(
    w,
    site,
    'activity',
    lapsed.map((l) => ({
      to: l.user_id,
      key: `activity.lapsed:${l.user_id}:${l.area_id}:${day(w.at)}`,
      subject: `Your ATC activity in ${l.area} has lapsed`,
      lines: [
        `You controlled less than ${rule.hours} hours on ${l.area}’s positions in the last ${rule.periodMonths} months, so you are no longer ATC-active there.`,
      ],
      link: { path: '/my', text: 'Your activity is on your page' },
    })),
  );
}

/** Warns every member whose activity in an area lapses within 30 days unless they control. */
export async function mailLapsing(w: Write, site: NoticeSite, rule: ActivityRule): Promise<number> {
  const { pairs, sessions } = await w.repos.activityNotices.activePairs(periodStart(rule, w.at));
  const byPair = new Map<string, Array<{ start: number; end: number }>>();
  for (const s of sessions) {
    const key = `${s.cid}:${s.area_id}`;
    byPair.set(key, [...(byPair.get(key) ?? []), { start: s.logon_time, end: s.last_seen }]);
  }
  const notices = pairs.flatMap((p) => {
    const lapse = lapseOf(rule, byPair.get(`${p.user_id}:${p.area_id}`) ?? [], p.granted_at, w.at);
    if (lapse === null) return [];
    return [
      {
        to: p.user_id,
        key: `activity.lapsing:${p.user_id}:${p.area_id}:${day(lapse.at)}`,
        subject: `Your ATC activity in ${p.area} lapses soon`,
        lines: [
          `Your ATC activity in ${p.area} lapses on ${when(lapse.at)} unless you control.`,
          `Control ${lapse.neededHours} hours on ${p.area}’s positions by then to stay active.`,
        ],
        link: { path: '/my', text: 'Your activity is on your page' },
      },
    ];
  });
  await sendNotices(w, site, 'activity', notices);
  return notices.length;
}

/** After a poll: the area's Moderators alerted of controllers online there who are not active in it. */
export async function alertInactiveOnline(w: Write, site: NoticeSite): Promise<void> {
  const found = await w.repos.activityNotices.inactiveOnline(ALERT_BATCH);
  if (found.length === 0) return;
  const claimed = await w.repos.notices.claim(
    found.map((f) => ({ key: inactiveOnlineKey(f.session_id), user_id: f.cid })),
    w.at,
  );
  const due = found.filter((f) => claimed.has(inactiveOnlineKey(f.session_id)));
  await w.publish(
    due.map((f) => ({
      type: 'activity.inactive_online' as const,
      data: { cid: f.cid, callsign: f.callsign, area: f.area, since: isoMicros(f.since) },
    })),
  );
  await sendNotices(
    w,
    site,
    'activity',
    due.flatMap((f) =>
      f.moderators.map((m) => ({
        to: m,
        subject: `A controller not active in ${f.area} is online`,
        lines: [
          `${nameOf(f.first_name, f.last_name, f.cid)} is controlling ${f.callsign} since ${when(f.since)}, and is not ATC-active in ${f.area}.`,
        ],
        link: { path: `/staff/users/${f.cid}`, text: 'Their page' },
      })),
    ),
  );
}
