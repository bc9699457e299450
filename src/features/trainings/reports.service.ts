// Reports after they are written (contract §20): edited, published and deleted. A draft is changed by
// its author or by anyone who may write the training's reports; a published report by its author or
// a Moderator/Administrator of the area. Publishing mails the student then; a published report never
// becomes a draft again (409); editing one publishes it again, `edited`, and mails nobody.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { mayDo, rolesIn, type StaffMember } from '../roles/domain.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import { REPORT_MAX } from './domain.js';
import { presentReport } from './trainings.presenter.js';
import type { Report } from './trainings.schema.js';
import { recordTrainingChanges, type TrainingChange } from './changes.js';
import type { ReportRow } from './records.repository.js';
import type { TrainingRecord } from './trainings.repository.js';
import { isRowId, type TrainingsService } from './trainings.service.js';
import type { StaffView } from '../roles/index.js';
import type { Deps, Write } from '../../app/deps.js';

export interface ReportPatch {
  report_date?: string;
  content?: string;
  improve?: string | null;
  position?: string | null;
  draft?: boolean;
}

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && parseIsoInstant(`${text}T00:00:00Z`) !== null;

/** Whether `staff` may edit or delete this report of training `t` (the pages show only what this allows). */
export function mayChangeReport(
  staff: StaffMember,
  t: { area_id: number; user_id: number },
  r: { author_id: number | null; draft: boolean },
) {
  if (r.author_id === staff.cid) return true;
  if (r.draft) return mayDo(staff, { kind: 'report', area: t.area_id, student: t.user_id }).ok;
  const held = rolesIn(staff, t.area_id);
  return held.has('Administrator') || held.has('Moderator');
}

/** What the audit entry shows of a report. */
const audited = (r: ReportRow) => ({
  report: r.id,
  report_date: r.report_date,
  position: r.position,
  draft: r.draft === 1,
  content: r.content,
  improve: r.improve,
});

/** What the report forms of a training page offer (contract §20). */
export interface ReportDesk {
  /** The callsigns of the training area's positions (the position picker). */
  positions: string[];
  /** The area's templates ("Start from template"). */
  templates: Array<{ id: number; name: string; content: string }>;
  /** The reports the viewer may edit or delete. */
  changeable: Set<number>;
}

export class TrainingReportsService {
  constructor(private readonly deps: Deps<'writer' | 'config' | 'repos'> & { trainings: TrainingsService }) {}

  /** The position picker, the templates and which reports the viewer may change, for a training they see. */
  async desk(view: StaffView, t: TrainingRecord, reports: readonly Report[]): Promise<ReportDesk> {
    const [positions, templates] = await Promise.all([this.deps.repos.positions.list(), this.deps.repos.reportTemplates.list([t.area_id])]);
    return {
      positions: positions.filter((p) => p.area_id === t.area_id).map((p) => p.callsign),
      templates: templates.map((x) => ({ id: x.id, name: x.name, content: x.content })),
      changeable: new Set(reports.filter((r) => mayChangeReport(view.member, t, r)).map((r) => r.id)),
    };
  }

  update(trainingId: number, reportId: number, patch: ReportPatch, actor: AuditActor): Promise<Report> {
    return this.deps.writer.write(async (w) => {
      const { t, row } = await this.lockedReport(w, trainingId, reportId, actor);
      const wasDraft = row.draft === 1;
      if (!wasDraft && patch.draft === true) throw new ConflictError('A published report cannot become a draft again.');
      const errors: FieldErrors = {};
      const set: Partial<ReportRow> = {};
      if (patch.report_date !== undefined) {
        if (isDate(patch.report_date.trim())) set.report_date = patch.report_date.trim();
        else errors.report_date = ['The report_date field must be a date, YYYY-MM-DD.'];
      }
      if (patch.content !== undefined) {
        const content = patch.content.trim();
        if (content.length === 0 || content.length > REPORT_MAX) errors.content = [`The report must be 1 to ${REPORT_MAX} characters.`];
        else set.content = content;
      }
      if (patch.improve !== undefined) {
        if ((patch.improve?.length ?? 0) > REPORT_MAX) errors.improve = [`The improve field must be at most ${REPORT_MAX} characters.`];
        else set.improve = patch.improve?.trim() || null;
      }
      if (patch.position !== undefined) {
        const text = patch.position?.trim().toUpperCase() ?? '';
        if (text !== '' && !(await w.repos.positions.findByCallsign(text))) errors.position = [`There is no position ${text}.`];
        else set.position = text || null;
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const publishing = wasDraft && patch.draft === false;
      const changed = Object.entries(set).some(([k, v]) => row[k as keyof ReportRow] !== v);
      if (!changed && !publishing) return presentReport(row);
      const after = await w.repos.trainingRecords.updateReport(row.id, { ...set, ...(publishing ? { draft: 0 } : {}), updated_at: w.at });
      const report = presentReport(after);
      const edited = !wasDraft;
      await this.record(w, t, actor, {
        timeline: [{ action: publishing ? 'report_published' : 'report_edited', detail: { id: row.id, report_date: after.report_date } }],
        event:
          wasDraft && !publishing ? null : { type: 'training.report', data: { report, training_id: t.id, ...(edited ? { edited } : {}) } },
        mail: publishing ? { kind: 'report', lines: [`A report of ${report.report_date} was written.`] } : null,
        record: audited(after),
        recordBefore: audited(row),
        auditAction: publishing ? 'training.report_published' : 'training.report_edited',
      });
      return report;
    });
  }

  remove(trainingId: number, reportId: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const { t, row } = await this.lockedReport(w, trainingId, reportId, actor);
      await w.repos.trainingRecords.deleteReport(row.id);
      const report = presentReport(row);
      await this.record(w, t, actor, {
        timeline: [{ action: 'report_deleted', detail: { id: row.id, report_date: row.report_date, draft: report.draft } }],
        // A draft was never published: its removal is not either.
        event: report.draft ? null : { type: 'training.report_deleted', data: { report, training_id: t.id } },
        mail: null,
        record: { report: row.id, deleted: true },
        recordBefore: audited(row),
        auditAction: 'training.report_deleted',
      });
    });
  }

  /** The training (its row held, so two changes of one report take turns) and the report; 404 or 403 otherwise. */
  private async lockedReport(w: Write, trainingId: number, reportId: number, actor: AuditActor) {
    const t = await this.deps.trainings.locked(w, trainingId);
    const row = isRowId(reportId) ? await w.repos.trainingRecords.report(t.id, reportId) : undefined;
    if (!row) throw new NotFoundError('Report');
    if (actor.kind === 'member') {
      const staff = await w.repos.roles.staffMember(actor.cid);
      if (!mayChangeReport(staff, t, { author_id: row.author_id, draft: row.draft === 1 })) {
        throw new ForbiddenError(
          row.draft === 1
            ? 'A draft report is changed by its author or by staff who may write reports of this training.'
            : "A published report is changed by its author or by the area's Moderators and Administrators.",
        );
      }
    }
    return { t, row };
  }

  private record(w: Write, t: TrainingRecord, actor: AuditActor, change: Omit<TrainingChange, 'actor' | 'before' | 'after'>) {
    return recordTrainingChanges(w, this.deps.config, [{ actor, before: t, after: t, ...change }]);
  }
}
