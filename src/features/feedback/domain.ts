// Feedback (contract §23): the rules, without I/O. Controller (any CID) and position (a callsign of
// the division) are optional; the text is 1–4000 characters; a member sends at most 10 in any 24 hours.
import type { FieldErrors } from '../../core/domain/errors.js';

export const TEXT_MAX = 4000;
export const COMMENT_MAX = 2000;
export const PER_DAY = 10;
export const DAY_MS = 86_400_000;

export interface FeedbackFields {
  controller: string;
  position: string;
}

export interface Target {
  controller: number | null;
  /** Upper-case callsign, or null. */
  position: string | null;
}

/** The controller and position named, or each field's message (the callsign is checked against the positions later). */
export function parseTarget(f: FeedbackFields, errors: FieldErrors): Target {
  const cid = f.controller.trim();
  let controller: number | null = null;
  if (cid !== '') {
    controller = /^\d{1,10}$/.test(cid) && Number(cid) >= 1 && Number(cid) <= 2_147_483_647 ? Number(cid) : null;
    if (controller === null) errors.controller = ["Give the controller's CID (a number), or leave it empty."];
  }
  const position = f.position.trim().toUpperCase();
  return { controller, position: position === '' ? null : position };
}

export function checkText(text: string, max: number, field: string, errors: FieldErrors): string {
  const t = text.trim();
  if (t.length === 0 || t.length > max) errors[field] = [`The text must be 1 to ${max} characters.`];
  return t;
}
