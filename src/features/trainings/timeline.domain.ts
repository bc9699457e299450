// A training's timeline in words (contract §20): "Status changed from In queue to Active training by
// Mona Moderator (1500002)", never codes or field names. An action this file does not know yet is
// said by its name in words, without its details.
import { examinationTimelineText } from './examinations.domain.js';
import { trainingStatusDescription } from '../members/domain/training-status.js';
import { personName } from '../members/domain/names.js';

type Names = ReadonlyMap<number, string>;

export interface TimelineItem {
  actor: string;
  actor_name: string | null;
  action: string;
  detail: Record<string, unknown>;
}

/** The CIDs a timeline names (its actors and the mentors it lists), to fetch their names at once. */
export function timelineCids(entries: readonly TimelineItem[]): number[] {
  return entries.flatMap((e) => [
    ...(e.actor.startsWith('member:') ? [Number(e.actor.slice(7))] : []),
    ...(e.action === 'mentors' ? [...cids(e.detail.from), ...cids(e.detail.to)] : []),
  ]);
}

const cids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const status = (v: unknown): string => (typeof v === 'number' ? trainingStatusDescription(v) : text(v));
const RESULTS: Readonly<Record<string, string>> = { PASSED: 'passed', FAILED: 'failed', INCOMPLETE: 'incomplete', POSTPONED: 'postponed' };

/** Who did it: a member by name and CID, an API key by its name, the command line, or Sector itself. */
export function actorText(e: Pick<TimelineItem, 'actor' | 'actor_name'>, names: Names): string {
  if (e.actor.startsWith('member:')) {
    const cid = Number(e.actor.slice(7));
    return names.has(cid) ? personName(names, cid) : e.actor_name ? `${e.actor_name} (${cid})` : `CID ${cid}`;
  }
  if (e.actor.startsWith('key:')) return `the API key ${e.actor_name ? `“${e.actor_name}”` : e.actor.slice(4)}`;
  if (e.actor === 'cli') return 'the command line';
  if (e.actor === 'roster') return 'the roster update';
  return 'Sector';
}

/** What happened, in a sentence without its actor. */
export function actionText(e: TimelineItem, names: Names): string {
  const d = e.detail;
  const people = (v: unknown) =>
    cids(v)
      .map((c) => personName(names, c))
      .join(', ') || 'none';
  switch (e.action) {
    case 'created':
      return `Training created (${status(d.status)}, for ${(Array.isArray(d.ratings) ? d.ratings.map(text).join(', ') : '') || 'nothing named'})`;
    case 'status':
      return `Status changed from ${status(d.from)} to ${status(d.to)}${d.reason ? ` (${text(d.reason)})` : ''}`;
    case 'paused':
      return 'Training paused';
    case 'resumed':
      return 'Training resumed';
    case 'type':
      return `Type changed from ${text(d.from)} to ${text(d.to)}`;
    case 'mentors':
      return `Mentors changed from ${people(d.from)} to ${people(d.to)}`;
    case 'endorsement':
      return `Facility endorsement ${text(d.rating)} issued`;
    case 'grace':
      return `Activity grace started in ${text(d.area)}`;
    case 'report':
      return d.draft === true ? 'Draft report written' : 'Report written and published';
    case 'examination':
      return `Examination at ${text(d.position)} recorded${typeof d.result === 'string' ? `: ${RESULTS[d.result] ?? d.result.toLowerCase()}` : ''}`;
    // The reports' own words (./views/report-form.ts, reportTimelineWords), kept as they are.
    case 'report_edited':
      return `report of ${text(d.report_date)} edited`;
    case 'report_published':
      return `report of ${text(d.report_date)} published`;
    case 'report_deleted':
      return `${d.draft === true ? 'draft ' : ''}report of ${text(d.report_date)} removed`;
    case 'link':
      return d.kind === 'examination' ? 'One-time link made for grading an examination' : 'One-time link made for a report';
    case 'link_used':
      return d.kind === 'examination' ? 'Examination graded through a one-time link' : 'Report written through a one-time link';
    case 'attachment':
      return `File ${text(d.file)} added to ${d.report !== undefined ? 'a report' : 'an examination'}${d.hidden === true ? ' (staff only)' : ''}`;
    case 'attachment_removed':
      return `File ${text(d.file)} removed from ${d.report !== undefined ? 'a report' : 'an examination'}`;
    case 'interest_confirmed':
      return 'The student confirmed they still want the training';
    case 'interest_requested':
      return `The student was asked to confirm their interest by ${text(d.deadline).slice(0, 10)}`;
    default: {
      const exam = examinationTimelineText(e.action, d);
      if (exam !== null) return exam;
      const words = e.action.replace(/[._]+/g, ' ').trim();
      return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
    }
  }
}

/** One entry: "Status changed from In queue to Active training by Mona Moderator (1500002)". */
export const timelineText = (e: TimelineItem, names: Names): string => `${actionText(e, names)} by ${actorText(e, names)}`;
