// The votes section of an import file (contract §23): a vote with its options' counts and who voted
// (the member and the day). Nothing links a voter to an option: a voter's record has no such field.
import { MAX_CID } from '../../../core/domain/limits.js';
import { utcFromFields } from '../../../core/domain/time.js';
import { ELIGIBILITIES, OPTION_MAX, OPTIONS_MAX, OPTIONS_MIN, QUESTION_MAX } from '../../votes/index.js';
import { fail, gives, instant, int, record, refuseDuplicates, reqStr, text } from './fields.js';
import type { ImportVote } from './plan.js';
import { preview } from './quote.js';

const VOTE_FIELDS = [
  'question',
  'closes_at',
  'eligibility',
  'created_by',
  'closed_at',
  'created_at',
  'updated_at',
  'options',
  'voters',
] as const;
const OPTION_FIELDS = ['text', 'count'] as const;
const VOTER_FIELDS = ['user_id', 'voted_on'] as const;
const MAX_COUNT = 2_147_483_647;
/** Stored for a vote whose creator is not known (Control Center keeps none): no CID is 0. */
export const UNKNOWN_CREATOR = 0;

function list(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) return fail(path, 'must be an array');
  return v as unknown[];
}

/** A day as stored: `YYYY-MM-DD` that exists. */
function day(v: unknown, path: string): string {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : null;
  if (!m || utcFromFields(Number(m[1]), Number(m[2]), Number(m[3])) === null)
    return fail(path, `must be a day such as 2026-01-31 (got ${preview(v)})`);
  return v as string;
}

export function parseVote(v: unknown, path: string): ImportVote {
  const o = record(v, path, VOTE_FIELDS);
  const eligibility = reqStr(o, 'eligibility', path, 20);
  if (!(ELIGIBILITIES as readonly string[]).includes(eligibility))
    fail(`${path}.eligibility`, `must be ${ELIGIBILITIES.join(', ')} (who may vote)`);
  if (o.options === undefined || o.options === null) fail(`${path}.options`, 'is required');
  const options = list(o.options, `${path}.options`).map((x, i) => {
    const p = `${path}.options[${i}]`;
    const opt = record(x, p, OPTION_FIELDS);
    return { text: text(opt.text, `${p}.text`, OPTION_MAX), count: int(opt, 'count', p, 0, MAX_COUNT) };
  });
  if (options.length < OPTIONS_MIN || options.length > OPTIONS_MAX)
    fail(`${path}.options`, `must hold ${OPTIONS_MIN} to ${OPTIONS_MAX} options`);
  const seen = new Map<string, number>();
  options.forEach((x, i) => {
    const earlier = seen.get(x.text.toLowerCase());
    if (earlier !== undefined) fail(`${path}.options[${i}].text`, `repeats options[${earlier}]`);
    seen.set(x.text.toLowerCase(), i);
  });
  const voters = gives(o, 'voters')
    ? (o.voters === null ? [] : list(o.voters, `${path}.voters`)).map((x, i) => {
        const p = `${path}.voters[${i}]`;
        const voter = record(x, p, VOTER_FIELDS);
        return { user_id: int(voter, 'user_id', p, 1, MAX_CID), voted_on: day(voter.voted_on, `${p}.voted_on`), path: p };
      })
    : undefined;
  // The database keeps one ballot per member and vote.
  if (voters) refuseDuplicates(voters, (x) => [x.user_id], 'user_id');
  const createdAt = gives(o, 'created_at') ? instant(o, 'created_at', path, true) : null;
  return {
    question: reqStr(o, 'question', path, QUESTION_MAX),
    closes_at: instant(o, 'closes_at', path, false)!,
    eligibility: eligibility as ImportVote['eligibility'],
    created_by: o.created_by === undefined || o.created_by === null ? null : int(o, 'created_by', path, 1, MAX_CID),
    closed_at: gives(o, 'closed_at') ? instant(o, 'closed_at', path, true) : null,
    created_at: createdAt,
    updated_at: gives(o, 'updated_at') ? (instant(o, 'updated_at', path, true) ?? createdAt) : createdAt,
    options,
    ...(voters ? { voters: voters.map(({ user_id, voted_on }) => ({ user_id, voted_on })) } : {}),
    path,
  };
}
