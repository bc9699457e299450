// The mails of endorsements (contract §24): to the holder when one is issued, shortened, revoked or
// expires, and to a solo's holder and their training's mentors 3 days before it ends. Each once per
// (kind, endorsement), in the transaction of the change or the worker's run.
import type { Write } from '../../app/deps.js';
import { type NoticeSite, sendNotices } from '../notices/index.js';
import type { EndorsementRecord } from './endorsements.repository.js';
import { soloWarningKey, type SoloEnding } from './solo-warnings.repository.js';

export type EndorsementNoticeKind = 'issued' | 'shortened' | 'revoked' | 'expired';

/** A solo is warned this long before it ends; one shorter than this is warned at issue. */
export const SOLO_WARNING_MS = 3 * 86_400_000;

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** "solo endorsement on EKCH_TWR", "visiting endorsement for S3 in Denmark", "facility endorsement EKCH_APP". */
export function endorsementName(e: Pick<EndorsementRecord, 'type' | 'rating' | 'areas' | 'positions'>): string {
  if (e.type === 'solo') return `solo endorsement on ${e.positions.join(', ')}`;
  if (e.type === 'facility') return `facility endorsement ${e.rating ?? ''}`.trim();
  const rating = e.rating ? ` for ${e.rating}` : '';
  const areas = e.areas.length > 0 ? ` in ${e.areas.join(', ')}` : '';
  return `${e.type} endorsement${rating}${areas}`;
}

const SUBJECTS: Record<EndorsementNoticeKind, string> = {
  issued: 'You have a new endorsement',
  shortened: 'Your endorsement ends earlier',
  revoked: 'Your endorsement was revoked',
  expired: 'Your endorsement has expired',
};

function lines(kind: EndorsementNoticeKind, e: EndorsementRecord): string[] {
  const name = endorsementName(e);
  switch (kind) {
    case 'issued':
      return [
        `You have been issued a ${name}, valid from ${when(e.valid_from)}${e.valid_to === null ? '' : ` until ${when(e.valid_to)}`}.`,
      ];
    case 'shortened':
      return [`Your ${name} now ends ${e.valid_to === null ? 'never' : `at ${when(e.valid_to)}`}.`];
    case 'revoked':
      return [`Your ${name} was revoked.`];
    case 'expired':
      return [`Your ${name} expired at ${e.valid_to === null ? 'its end' : when(e.valid_to)}.`];
  }
}

/** The holders' mails of these changes, once per (kind, endorsement). */
export async function mailEndorsementChanges(
  w: Write,
  site: NoticeSite,
  changes: ReadonlyArray<{ kind: EndorsementNoticeKind; e: EndorsementRecord }>,
): Promise<void> {
  await sendNotices(
    w,
    site,
    'endorsements',
    changes.map(({ kind, e }) => ({
      to: e.user_id,
      key: `endorsement.${kind}:${e.id}`,
      subject: SUBJECTS[kind],
      lines: lines(kind, e),
      link: { path: '/my', text: 'Your endorsements are on your page' },
    })),
  );
}

/** The warnings of solos about to end: the holder and their training's mentors, claimed once per solo. */
export async function mailSoloWarnings(w: Write, site: NoticeSite, solos: readonly SoloEnding[]): Promise<void> {
  // One key per solo: the holder's notice claims it, the mentors' mails go with it.
  const claimed = await w.repos.notices.claim(
    solos.map((s) => ({ key: soloWarningKey(s.id), user_id: s.user_id })),
    w.at,
  );
  const due = solos.filter((s) => claimed.has(soloWarningKey(s.id)));
  const end = (s: SoloEnding) => when(s.valid_to);
  await sendNotices(
    w,
    site,
    'endorsements',
    due.flatMap((s) => {
      const holder = `${[s.holder_first, s.holder_last].filter(Boolean).join(' ') || 'Your student'} (${s.user_id})`;
      return [
        {
          to: s.user_id,
          subject: 'Your solo endorsement ends soon',
          lines: [`Your solo endorsement on ${s.callsign} ends at ${end(s)}.`],
          link: { path: '/my/training', text: 'Your training page' },
        },
        ...s.mentors
          .filter((m) => m !== s.user_id)
          .map((m) => ({
            to: m,
            subject: 'A solo endorsement of your student ends soon',
            lines: [`The solo endorsement of ${holder} on ${s.callsign}${s.area ? ` (${s.area})` : ''} ends at ${end(s)}.`],
            link: { path: '/staff/students', text: 'Your students' },
          })),
      ];
    }),
  );
}
