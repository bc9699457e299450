// Reports of a training (contract §18): written by the area's staff or a mentor for their own
// trainee; a draft report is neither shown to the student nor published. Examinations:
// examinations.service.ts.
import type { AuditActor } from '../audit/domain/index.js';
import { ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import { REPORT_MAX } from './domain.js';
import { presentReport } from './trainings.presenter.js';
import type { Report } from './trainings.schema.js';
import { recordTrainingChanges } from './changes.js';
import type { TrainingsService } from './trainings.service.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { Deps } from '../../app/deps.js';
import type { Write } from '../../app/deps.js';

export interface ReportInput {
  report_date: string;
  content: string;
  improve?: string | null;
  position?: string | null;
  draft: boolean;
}

/** A YYYY-MM-DD date that exists. */
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && parseIsoInstant(`${text}T00:00:00Z`) !== null;

export class TrainingRecordsService {
  constructor(private readonly deps: Deps<'writer' | 'config'> & { trainings: TrainingsService }) {}

  addReport(trainingId: number, input: ReportInput, actor: AuditActor): Promise<Report> {
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      if (actor.kind === 'member') {
        authorize(await w.repos.roles.staffMember(actor.cid), 'report', { area: t.area_id, student: t.user_id });
      }
      return this.writeReport(w, t, input, actor);
    });
  }

  /** The report, inside a write that holds the training's lock and has decided the actor may write it (a one-time link). */
  async writeReport(w: Write, t: TrainingRecord, input: ReportInput, actor: AuditActor): Promise<Report> {
    const errors: FieldErrors = {};
    if (!isDate(input.report_date)) errors.report_date = ['The report_date field must be a date, YYYY-MM-DD.'];
    const content = input.content.trim();
    if (content.length === 0 || content.length > REPORT_MAX) errors.content = [`The report must be 1 to ${REPORT_MAX} characters.`];
    if ((input.improve?.length ?? 0) > REPORT_MAX) errors.improve = [`The improve field must be at most ${REPORT_MAX} characters.`];
    const position = await this.position(w, input.position ?? null, errors);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const row = await w.repos.trainingRecords.addReport({
      training_id: t.id,
      author_id: actor.kind === 'member' ? actor.cid : null,
      report_date: input.report_date,
      content,
      improve: input.improve?.trim() || null,
      position,
      draft: input.draft ? 1 : 0,
      created_at: w.at,
      updated_at: w.at,
    });
    const report = presentReport(row);
    await recordTrainingChanges(w, this.deps.config, [
      {
        actor,
        before: t,
        after: t,
        timeline: [{ action: 'report', detail: { id: row.id, draft: report.draft } }],
        event: report.draft ? null : { type: 'training.report', data: { report, training_id: t.id } },
        mail: report.draft ? null : { kind: 'report', lines: [`A report of ${report.report_date} was written.`] },
        record: { report: row.id, draft: report.draft },
      },
    ]);
    return report;
  }

  /** A callsign of a position, upper-cased; null when none is given. */
  private async position(w: Write, callsign: string | null, errors: FieldErrors): Promise<string | null> {
    const text = callsign?.trim().toUpperCase() ?? '';
    if (text === '') return null;
    if (!(await w.repos.positions.findByCallsign(text))) errors.position = [`There is no position ${text}.`];
    return text;
  }
}
