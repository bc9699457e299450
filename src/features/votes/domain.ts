// Votes (contract §23): the rules, without I/O. A vote has a question (1–500 characters), 2–10
// options (one a line on the form, each 1–200 characters, no two alike), a closing time in the
// future and who may vote; eligibility is judged when the ballot is cast.
import type { FieldErrors } from '../../core/domain/errors.js';
import { utcFromFields } from '../../core/domain/time.js';
import { parseClockTime } from '../bookings/domain/period.js';
import { isMember, type Membership } from '../members/domain/membership.js';

export const ELIGIBILITIES = ['members', 'active', 'all'] as const;
export type Eligibility = (typeof ELIGIBILITIES)[number];
export const QUESTION_MAX = 500;
export const OPTION_MAX = 200;
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 10;

export const ELIGIBILITY_TEXT: Record<Eligibility, string> = {
  members: 'members of the division',
  active: 'members who are ATC-active in an area',
  all: 'every signed-in user',
};

export interface VoteFields {
  question: string;
  options: string;
  close_date: string;
  close_time: string;
  eligibility: string;
}

export interface VoteInput {
  question: string;
  options: string[];
  closesAt: number;
  eligibility: Eligibility;
}

export function parseVote(f: VoteFields, now: number): { ok: true; vote: VoteInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const question = f.question.trim();
  if (question.length === 0 || question.length > QUESTION_MAX) errors.question = [`The question must be 1 to ${QUESTION_MAX} characters.`];
  const options = f.options
    .split(/\r?\n/)
    .map((o) => o.trim())
    .filter((o) => o !== '');
  if (options.length < OPTIONS_MIN || options.length > OPTIONS_MAX)
    errors.options = [`Give ${OPTIONS_MIN} to ${OPTIONS_MAX} options, one a line.`];
  else if (options.some((o) => o.length > OPTION_MAX)) errors.options = [`Each option must be at most ${OPTION_MAX} characters.`];
  else if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) errors.options = ['No two options may be the same.'];
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(f.close_date.trim());
  const minutes = parseClockTime(f.close_time.trim());
  const midnight = day ? utcFromFields(Number(day[1]), Number(day[2]), Number(day[3])) : null;
  if (midnight === null) errors.close_date = ['Give the closing day as YYYY-MM-DD.'];
  if (minutes === null) errors.close_time = ['Give the closing time as HH:MM (UTC).'];
  const closesAt = midnight === null || minutes === null ? null : midnight + minutes * 60_000;
  if (closesAt !== null && closesAt <= now) errors.close_date = ['The closing time must be in the future.'];
  const eligibility = ELIGIBILITIES.find((e) => e === f.eligibility.trim());
  if (!eligibility) errors.eligibility = [`Choose who may vote: ${ELIGIBILITIES.join(', ')}.`];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, vote: { question, options, closesAt: closesAt!, eligibility: eligibility! } };
}

/** Whether a user may vote, as their membership and activity are now; or why not. */
export function mayVote(
  eligibility: Eligibility,
  membership: Membership,
  user: { division: string | null; subdivision: string | null; active: boolean } | undefined,
): { ok: true } | { ok: false; reason: string } {
  if (eligibility === 'all' && user) return { ok: true };
  if (user && isMember(membership, user) && (eligibility === 'members' || user.active)) return { ok: true };
  return { ok: false, reason: `Only ${ELIGIBILITY_TEXT[eligibility]} may vote in this.` };
}
