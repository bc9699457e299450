// What every change of a training records, in its own transaction: the timeline entries, the
// audit entry, the event (drafts and timeline-only changes publish none) and the student's mail.
import { type AuditActor, actorColumns, changedFields, trainingTarget } from '../audit/domain/index.js';
import type { EventType } from '../events/domain.js';
import { presentTraining } from './trainings.presenter.js';
import { trainingMail, type TrainingMailKind } from '../operations/index.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { Write } from '../../app/deps.js';
import { mailableMembers } from '../notices/index.js';

/** Where mail links point and how it is signed. */
export interface MailSite {
  siteName: string;
  publicUrl: string;
}

export interface TrainingChange {
  actor: AuditActor;
  /** The training as it was (null: created by this change) and as committed. */
  before: TrainingRecord | null;
  after: TrainingRecord;
  /** Timeline entries, in order: what happened, with its details. */
  timeline: ReadonlyArray<{ action: string; detail: Record<string, unknown> }>;
  /** The event: training.created, .updated or .closed with data.training; or another with its own data. */
  event: { type: EventType; data?: Record<string, unknown> } | null;
  /** The student's mail, when this change is one they are told of. */
  mail: { kind: TrainingMailKind; lines: readonly string[] } | null;
  /** A record added to the training (a report, an examination): the audit entry shows it. */
  record?: Record<string, unknown>;
  /** The record as it was, when changed or removed (the audit entry's before). */
  recordBefore?: Record<string, unknown>;
  /** The audit entry's action, when neither the event nor the first timeline entry names it. */
  auditAction?: string;
}

/** Records the changes: one statement each for their timeline, audit entries, events and mail, whatever their number. */
export async function recordTrainingChanges(w: Write, site: MailSite, changes: readonly TrainingChange[]): Promise<void> {
  if (changes.length === 0) return;
  await w.repos.trainingRecords.addTimeline(
    changes.flatMap((c) => {
      const { actor, actor_name } = actorColumns(c.actor);
      return c.timeline.map((e) => ({
        training_id: c.after.id,
        at: w.at,
        actor,
        actor_name,
        action: e.action,
        detail: JSON.stringify(e.detail),
      }));
    }),
  );
  const shown = changes.map((c) => ({ c, after: presentTraining(c.after), before: c.before && presentTraining(c.before) }));
  for (const [actor, group] of groupByActor(shown)) {
    await w.audit(
      actor,
      group.map(({ c, before, after }) => ({
        action: c.auditAction ?? (c.event?.type.startsWith('training.') ? c.event.type : `training.${c.timeline[0]?.action ?? 'updated'}`),
        target: trainingTarget(c.after.id),
        ...(c.record ? { before: c.recordBefore ?? null, after: c.record } : changedFields(before, after)),
      })),
    );
  }
  await w.publish(shown.flatMap(({ c, after }) => (c.event ? [{ type: c.event.type, data: c.event.data ?? { training: after } }] : [])));
  const mailed = changes.filter((c) => c.mail !== null);
  if (mailed.length === 0) return;
  const students = new Map((await w.repos.trainings.students(mailed.map((c) => c.after.user_id))).map((s) => [s.id, s]));
  // The member's choice (§24), but for the continued-interest request, which cannot be turned off.
  const takes = new Set((await mailableMembers(w, [...students.keys()], 'training')).map((r) => r.id));
  await w.mail(
    mailed.flatMap((c) => {
      const student = students.get(c.after.user_id);
      if (!student?.email || (c.mail!.kind !== 'interest' && !takes.has(student.id))) return [];
      return [
        trainingMail({
          ...site,
          kind: c.mail!.kind,
          to: student.email,
          firstName: student.first_name,
          area: c.after.area,
          lines: c.mail!.lines,
        }),
      ];
    }),
  );
}

/** The changes by actor, keeping their order within each (one audit append per actor). */
function groupByActor<T extends { c: TrainingChange }>(items: readonly T[]): Map<AuditActor, T[]> {
  const out = new Map<AuditActor, T[]>();
  for (const item of items) out.set(item.c.actor, [...(out.get(item.c.actor) ?? []), item]);
  return out;
}
