// Feedback (contract §23): any signed-in member sends it (10 in any 24 hours); the Moderators and
// Administrators of the position's area (any of them for feedback without a position) read it on the
// staff page, correct its controller and position, mark it actioned and comment. The sender is shown
// on the staff page only: not in the API, the event, the forwarded copy or any page of the controller.
import type { AuditActor } from '../audit/domain/index.js';
import { DomainError, NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { isoMicros } from '../../core/domain/time.js';
import { html } from '../../core/web/html.js';
import { authorize, mayDo } from '../roles/domain.js';
import type { StaffView } from '../roles/index.js';
import { checkText, COMMENT_MAX, DAY_MS, type FeedbackFields, parseTarget, PER_DAY, TEXT_MAX } from './domain.js';
import type { CommentRow, FeedbackRow } from './feedback.repository.js';
import type { Deps, Write } from '../../app/deps.js';

type MemberActor = Extract<AuditActor, { kind: 'member' }>;

/** The 11th feedback within 24 hours: the 429 page. */
export class TooMuchFeedbackError extends DomainError {
  constructor() {
    super(`You have sent ${PER_DAY} feedback in the last 24 hours, the most a member may; please try again tomorrow.`);
  }
}

export interface StaffFeedback {
  items: FeedbackRow[];
  comments: CommentRow[];
  /** CID -> "First Last" of the senders, controllers and comment authors. */
  names: Map<number, string>;
}

const target = (id: number) => `feedback:${id}`;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export class FeedbackService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'config'>) {}

  async send(fields: FeedbackFields & { text: string }, actor: MemberActor): Promise<number> {
    const errors: FieldErrors = {};
    const t = parseTarget(fields, errors);
    const text = checkText(fields.text, TEXT_MAX, 'text', errors);
    return this.deps.writer.write(async (w) => {
      const position = await this.positionOf(w, t.position, errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      if ((await w.repos.feedback.sentSince(actor.cid, w.at - DAY_MS)) >= PER_DAY) throw new TooMuchFeedbackError();
      const id = await w.repos.feedback.add({
        sender_id: actor.cid,
        controller: t.controller,
        position_id: position?.id ?? null,
        text,
        at: w.at,
      });
      const area =
        position?.area_id == null ? null : ((await w.repos.positions.areas()).find((a) => a.id === position.area_id)?.name ?? null);
      const body = { id, controller: t.controller, position: position?.callsign ?? null, area, text, created_at: isoMicros(w.at) };
      await w.publish([{ type: 'feedback.created', data: { feedback: body } }]);
      const to = this.deps.config.feedbackForwardTo;
      if (to !== null) await w.mail([this.copy(to, body)]);
      return id;
    });
  }

  /** What the viewer may read: the feedback of their areas' positions, and that without a position for any Moderator/Administrator. */
  async forStaff(view: StaffView): Promise<StaffFeedback> {
    const areas = view.areas.filter((a) => mayDo(view.member, { kind: 'feedback', area: a.id }).ok).map((a) => a.id);
    const noPosition = mayDo(view.member, { kind: 'feedback', area: null }).ok;
    const items = areas.length === 0 && !noPosition ? [] : await this.deps.repos.feedback.list({ areas, noPosition });
    const comments = await this.deps.repos.feedback.comments(items.map((f) => f.id));
    const cids = [
      ...items.flatMap((f) => [f.sender_id, ...(f.controller === null ? [] : [f.controller])]),
      ...comments.map((c) => c.author_id),
    ];
    return { items, comments, names: await this.deps.repos.staff.names([...new Set(cids)]) };
  }

  /** The API's list (no sender, no comments). */
  async forApi(filter: { area?: string; controller?: number }): Promise<FeedbackRow[]> {
    const areas = await this.deps.repos.positions.areas();
    if (filter.area !== undefined) {
      const area = areas.find((a) => a.name.toLowerCase() === filter.area!.toLowerCase());
      if (!area) return [];
      return this.deps.repos.feedback.list({
        areas: [area.id],
        noPosition: false,
        area: area.id,
        ...(filter.controller === undefined ? {} : { controller: filter.controller }),
      });
    }
    return this.deps.repos.feedback.list({
      areas: areas.map((a) => a.id),
      noPosition: true,
      ...(filter.controller === undefined ? {} : { controller: filter.controller }),
    });
  }

  correct(id: number, fields: FeedbackFields, actor: MemberActor): Promise<void> {
    const errors: FieldErrors = {};
    const t = parseTarget(fields, errors);
    return this.deps.writer.write(async (w) => {
      const before = await this.authorized(w, id, actor);
      const position = await this.positionOf(w, t.position, errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      if (position) authorize(await w.repos.roles.staffMember(actor.cid), 'feedback', { area: position.area_id });
      await w.repos.feedback.correct(id, { controller: t.controller, position_id: position?.id ?? null, at: w.at });
      await w.audit(actor, [
        {
          action: 'feedback.corrected',
          target: target(id),
          before: { controller: before.controller, position: before.callsign },
          after: { controller: t.controller, position: position?.callsign ?? null },
        },
      ]);
    });
  }

  setActioned(id: number, actioned: boolean, actor: MemberActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const before = await this.authorized(w, id, actor);
      await w.repos.feedback.setActioned(id, actioned, w.at);
      await w.audit(actor, [
        { action: 'feedback.actioned', target: target(id), before: { actioned: before.actioned === 1 }, after: { actioned } },
      ]);
    });
  }

  comment(id: number, text: string, actor: MemberActor): Promise<void> {
    const errors: FieldErrors = {};
    const t = checkText(text, COMMENT_MAX, 'comment', errors);
    return this.deps.writer.write(async (w) => {
      await this.authorized(w, id, actor);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      await w.repos.feedback.addComment({ feedback_id: id, author_id: actor.cid, text: t, created_at: w.at });
      await w.audit(actor, [{ action: 'feedback.commented', target: target(id), before: null, after: { comment: t } }]);
    });
  }

  private async authorized(w: Write, id: number, actor: MemberActor): Promise<FeedbackRow> {
    const f = validId(id) ? await w.repos.feedback.find(id) : undefined;
    if (!f) throw new NotFoundError('Feedback');
    authorize(await w.repos.roles.staffMember(actor.cid), 'feedback', { area: f.area_id });
    return f;
  }

  private async positionOf(w: Write, callsign: string | null, errors: FieldErrors) {
    if (callsign === null) return null;
    const position = await w.repos.positions.findByCallsign(callsign);
    if (!position) errors.position = [`${callsign} is not a position of the division.`];
    return position ?? null;
  }

  /** The copy for FEEDBACK_FORWARD_TO: the division, why it was sent, the feedback; never the sender. */
  private copy(to: string, f: { id: number; controller: number | null; position: string | null; area: string | null; text: string }) {
    const { siteName, publicUrl } = this.deps.config;
    const about = [
      f.controller === null ? null : `controller ${f.controller}`,
      f.position === null ? null : `position ${f.position}`,
    ].filter((s) => s !== null);
    const subject = `${siteName}: new feedback${about.length > 0 ? ` on ${about.join(', ')}` : ''}`;
    const why = `You get this because ${siteName} forwards every feedback to this address (FEEDBACK_FORWARD_TO).`;
    const link = `${publicUrl}/staff/feedback`;
    return {
      to_address: to,
      subject,
      text_body: `${siteName} received feedback ${f.id}${about.length > 0 ? ` on ${about.join(', ')}` : ''}${f.area ? ` (${f.area})` : ''}:\n\n${f.text}\n\nRead and handle it on ${link}\n\n${why}\n`,
      html_body: html`<p>
          ${siteName} received feedback ${f.id}${about.length > 0 ? ` on ${about.join(', ')}` : ''}${f.area ? ` (${f.area})` : ''}:
        </p>
        <blockquote>${f.text}</blockquote>
        <p><a href="${link}">Read and handle it</a></p>
        <p>${why}</p>`.toString(),
    };
  }
}
