import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import { trainingStatusDescription } from '../members/domain/training-status.js';
import type { ReportRow, TimelineRow } from './records.repository.js';
import type { ExaminationRow } from './examinations.repository.js';
import type { AttachmentRow } from './attachments.repository.js';
import { attachmentsByRecord } from './attachments.presenter.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { Examination, Report, Training, TrainingDetail } from './trainings.schema.js';

export function presentTraining(t: TrainingRecord): Training {
  return {
    id: t.id,
    user_id: t.user_id,
    area: t.area,
    type: t.type as Training['type'],
    status: t.status,
    status_description: trainingStatusDescription(t.status),
    ratings: t.ratings,
    created_at: isoMicros(t.created_at),
    started_at: isoMicrosOrNull(t.started_at),
    closed_at: isoMicrosOrNull(t.closed_at),
    closed_reason: t.closed_reason,
    paused: t.paused_at !== null,
    mentors: t.mentors,
    motivation: t.motivation,
    experience: t.experience,
    english_only: t.english_only === 1,
  };
}

export function presentReport(r: ReportRow): Report {
  return {
    id: r.id,
    training_id: r.training_id,
    report_date: r.report_date,
    content: r.content,
    improve: r.improve,
    position: r.position,
    draft: r.draft === 1,
    author_id: r.author_id,
    created_at: isoMicros(r.created_at),
  };
}

export function presentExamination(x: ExaminationRow): Examination {
  return {
    id: x.id,
    training_id: x.training_id,
    examination_date: x.examination_date,
    start: x.start,
    position: x.position,
    examiner_id: x.examiner_id,
    examiners: x.examiners,
    result: x.result,
    created_at: isoMicros(x.created_at),
    updated_at: isoMicros(x.updated_at),
  };
}

export function presentTrainingDetail(
  t: TrainingRecord,
  reports: ReportRow[],
  examinations: ExaminationRow[],
  timeline: TimelineRow[],
  attachments: readonly AttachmentRow[] = [],
): TrainingDetail {
  const files = attachmentsByRecord(attachments);
  return {
    ...presentTraining(t),
    reports: reports.map((r) => ({ ...presentReport(r), attachments: files.report(r.id) })),
    examinations: examinations.map((x) => ({ ...presentExamination(x), attachments: files.examination(x.id) })),
    timeline: timeline.map((e) => ({
      at: isoMicros(e.at),
      actor: e.actor,
      actor_name: e.actor_name,
      action: e.action,
      detail: JSON.parse(e.detail) as Record<string, unknown>,
    })),
  };
}
