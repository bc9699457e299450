// The feedback section of an import file (contract §23): members' feedback on a controller or a
// position, with staff's internal comments, by id when given. Pure.
import { MAX_CALLSIGN_LENGTH, MAX_CID } from '../../../core/domain/limits.js';
import { FEEDBACK_COMMENT_MAX, FEEDBACK_TEXT_MAX } from '../../feedback/index.js';
import { bool, fail, gives, instant, int, notNull, nullableStr, record, reqStr } from './fields.js';
import { recordId } from './tasks.js';

export interface FeedbackSet {
  sender_id: number;
  /** Any CID, not only Sector's users. */
  controller: number | null;
  position: string | null;
  text: string;
  actioned: boolean;
  created_at: number;
  updated_at: number;
}

export interface ImportFeedbackComment {
  author_id: number;
  text: string;
  created_at: number;
  path: string;
}

export interface ImportFeedback {
  /** Null: a new feedback, numbered by the database. */
  id: number | null;
  set: Partial<FeedbackSet>;
  /** Undefined: omitted, the stored comments stay; a list (empty for null) replaces them. */
  comments?: ImportFeedbackComment[];
  path: string;
}

const FEEDBACK_FIELDS = ['id', 'sender_id', 'controller', 'position', 'text', 'actioned', 'comments', 'created_at', 'updated_at'] as const;
/** Fields a record creating a feedback must give. */
export const FEEDBACK_REQUIRED = ['sender_id', 'text', 'created_at'] as const;
/** The controller column holds a 32-bit CID. */
const MAX_CONTROLLER = 2_147_483_647;

export function parseFeedback(f: unknown, path: string): ImportFeedback {
  const o = record(f, path, FEEDBACK_FIELDS);
  const set: Partial<FeedbackSet> = {};
  if (gives(o, 'sender_id')) {
    notNull(o, 'sender_id', path);
    set.sender_id = int(o, 'sender_id', path, 1, MAX_CID);
  }
  if (gives(o, 'controller')) set.controller = o.controller === null ? null : int(o, 'controller', path, 1, MAX_CONTROLLER);
  if (gives(o, 'position')) set.position = nullableStr(o, 'position', path, MAX_CALLSIGN_LENGTH)?.toUpperCase() ?? null;
  if (gives(o, 'text')) set.text = reqStr(o, 'text', path, FEEDBACK_TEXT_MAX);
  if (gives(o, 'actioned')) set.actioned = bool(o, 'actioned', path);
  for (const key of ['created_at', 'updated_at'] as const) {
    if (!gives(o, key)) continue;
    notNull(o, key, path);
    set[key] = instant(o, key, path, false)!;
  }
  if (gives(o, 'comments') && o.comments !== null && !Array.isArray(o.comments)) fail(`${path}.comments`, 'must be an array');
  const comments = gives(o, 'comments')
    ? ((o.comments ?? []) as unknown[]).map((c, i) => {
        const cp = `${path}.comments[${i}]`;
        const r = record(c, cp, ['author_id', 'text', 'created_at']);
        return {
          author_id: int(r, 'author_id', cp, 1, MAX_CID),
          text: reqStr(r, 'text', cp, FEEDBACK_COMMENT_MAX),
          created_at: instant(r, 'created_at', cp, false)!,
          path: cp,
        };
      })
    : undefined;
  return { id: recordId(o, path), set, ...(comments === undefined ? {} : { comments }), path };
}
