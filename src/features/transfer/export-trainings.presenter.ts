// The trainings of the export, with everything the import reads of them (src/features/transfer/import/trainings.ts):
// its fields in the import's order and formats, so importing an export restores them.
import { ratingCode } from '../members/domain/ratings.js';
import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import type { DivisionRows } from './export.repository.js';
import { by, byText, groupBy } from './export-order.presenter.js';
import { presentReport } from '../trainings/index.js';

export function exportTrainings(rows: DivisionRows, area: (id: number) => string) {
  const ratings = groupBy(rows.trainingRatings, (r) => r.training_id);
  const facilities = groupBy(rows.trainingFacilities, (r) => r.training_id);
  const mentors = groupBy(rows.trainingMentors, (r) => r.training_id);
  const reports = groupBy(rows.trainingReports, (r) => r.training_id);
  const examinations = groupBy(rows.trainingExaminations, (r) => r.training_id);
  const examiners = groupBy(rows.trainingExaminers, (r) => r.examination_id);
  const timeline = groupBy(rows.trainingTimeline, (r) => r.training_id);
  // A record's files by their hash (an export writes each beside the file, named so), given only where there are some.
  const files = (rows_: DivisionRows['trainingAttachments']) =>
    rows_.length === 0
      ? {}
      : {
          attachments: [...rows_].sort(by((a) => a.id)).map((a) => ({
            name: a.name,
            type: a.type,
            size: a.size,
            sha256: a.sha256,
            hidden: a.hidden === 1,
            uploader_id: a.uploader_id,
            uploader: a.uploader,
            created_at: isoMicros(a.created_at),
          })),
        };
  const ofReport = groupBy(
    rows.trainingAttachments.filter((a) => a.report_id !== null),
    (a) => a.report_id!,
  );
  const ofExamination = groupBy(
    rows.trainingAttachments.filter((a) => a.examination_id !== null),
    (a) => a.examination_id!,
  );

  return rows.trainings
    .map((t) => ({
      user_id: t.user_id,
      area: area(t.area_id),
      type: t.type,
      status: t.status,
      created_at: isoMicros(t.created_at),
      started_at: isoMicrosOrNull(t.started_at),
      // Rating codes, and the facility endorsements' names apart: a facility may be spelled like a code.
      ratings: (ratings.get(t.id) ?? [])
        .map((r) => r.rating)
        .sort((a, b) => a - b)
        .map(ratingCode),
      facilities: (facilities.get(t.id) ?? []).map((f) => f.name).sort(byText),
      closed_at: isoMicrosOrNull(t.closed_at),
      closed_reason: t.closed_reason,
      motivation: t.motivation,
      experience: t.experience,
      english_only: t.english_only === 1,
      paused_at: isoMicrosOrNull(t.paused_at),
      paused_ms: t.paused_ms,
      queue_wait_ms: t.queue_wait_ms,
      interest_confirmed_at: isoMicrosOrNull(t.interest_confirmed_at),
      interest_deadline: isoMicrosOrNull(t.interest_deadline),
      mentors: (mentors.get(t.id) ?? []).map((m) => m.user_id).sort((a, b) => a - b),
      // Lists in the order the pages show them (by date, then as written); an import writes them in
      // list order, so the ids it gives keep that order and a second export matches the first.
      reports: [...(reports.get(t.id) ?? [])]
        .sort(
          by(
            (r) => r.report_date,
            (r) => r.id,
          ),
        )
        .map((r) => {
          // The API's form without its ids (an import gives new ones), and when it last changed.
          const { id: _id, training_id: _training, ...report } = presentReport(r);
          return { ...report, updated_at: isoMicros(r.updated_at), ...files(ofReport.get(r.id) ?? []) };
        }),
      examinations: [...(examinations.get(t.id) ?? [])]
        .sort(
          by(
            (x) => x.examination_date,
            (x) => x.id,
          ),
        )
        .map((x) => ({
          examination_date: x.examination_date,
          start: x.start,
          position: x.position,
          examiner_id: x.examiner_id,
          examiners: (examiners.get(x.id) ?? []).sort(by((e) => e.ordinal)).map((e) => e.user_id),
          result: x.result,
          created_at: isoMicros(x.created_at),
          updated_at: isoMicros(x.updated_at),
          ...files(ofExamination.get(x.id) ?? []),
        })),
      timeline: [...(timeline.get(t.id) ?? [])].sort(by((e) => e.id)).map((e) => ({
        at: isoMicros(e.at),
        actor: e.actor,
        actor_name: e.actor_name,
        action: e.action,
        detail: JSON.parse(e.detail) as unknown,
      })),
      key: t.created_at,
    }))
    .sort(
      by(
        (t) => t.user_id,
        (t) => t.area,
        (t) => t.key,
      ),
    )
    .map(({ key: _key, ...t }) => t);
}
