// Examinations planned, then graded (contract §18, §20): planned with one or two eligible examiners
// (or recorded with a result at once, as §18 does), moved, given examiners, graded, corrected by the
// area's Moderators and Administrators, or cancelled while planned. Each change is one write under
// the training's row lock, with its timeline entry, audit entry, `training.examination` event
// (state planned, graded or cancelled) and mail: the student and the examiners are told of planning,
// moving and cancelling; the student of the result.
import type { AuditActor } from '../audit/domain/index.js';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import { EXAMINATION_RESULTS, type ExaminationResult } from './domain.js';
import { andList, examinerProblems, type ExaminationFacts, isStart, MAX_EXAMINERS, whenText } from './examinations.domain.js';
import { presentExamination } from './trainings.presenter.js';
import type { Examination } from './trainings.schema.js';
import type { ExaminationRow } from './examinations.repository.js';
import type { TrainingRecord } from './trainings.repository.js';
import { recordTrainingChanges } from './changes.js';
import { examinerMail } from '../operations/index.js';
import { isRowId, type TrainingsService } from './trainings.service.js';
import { mailableMembers } from '../notices/index.js';
import type { Deps, Write } from '../../app/deps.js';

export interface ExaminationInput {
  examination_date: string;
  start?: string | null;
  position: string;
  /** CIDs, 1–2; or examiner_id alone (§18). */
  examiners?: readonly number[];
  examiner_id?: number;
  result?: string | null;
}

export type ExaminationPatch = Partial<ExaminationInput>;

type State = 'planned' | 'graded' | 'cancelled';
/** What the student's mail says. */
type Told = 'planned' | 'moved' | 'cancelled' | 'corrected' | 'graded';

/** A YYYY-MM-DD date that exists. */
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && parseIsoInstant(`${text}T00:00:00Z`) !== null;
const isResult = (text: string): text is ExaminationResult => (EXAMINATION_RESULTS as readonly string[]).includes(text);

export class TrainingExaminationsService {
  constructor(private readonly deps: Deps<'writer' | 'config'> & { trainings: TrainingsService }) {}

  /** Plans an examination (no result), or records one graded at once (§18). */
  add(trainingId: number, input: ExaminationInput, actor: AuditActor): Promise<Examination> {
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      const errors: FieldErrors = {};
      const examiners = examinersOf(input, errors);
      if (examiners === null && !errors.examiner_id) errors.examiners = ['Name one or two examiners.'];
      await this.authorize(w, actor, t, examiners ?? [], false);
      const result = input.result?.trim() || null;
      if (result === null && t.status < 0) throw new ConflictError('A closed training cannot have an examination planned.');
      const values = { date: input.examination_date.trim(), start: input.start?.trim() || null, position: input.position, result };
      const position = await this.checked(w, values, errors);
      const names = await this.eligible(w, t, examiners, position, input.examiners ? 'examiners' : 'examiner_id', errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const row = await w.repos.trainingExaminations.insert(
        {
          training_id: t.id,
          examiner_id: examiners![0]!,
          examination_date: values.date,
          start: values.start,
          position: position!.callsign,
          result: result as ExaminationResult | null,
          created_at: w.at,
          updated_at: w.at,
        },
        examiners!,
      );
      const facts = factsOf(row, names);
      if (row.result === null) await this.told(w, t, actor, row, 'planned', 'examination_planned', { ...facts }, names, 'planned');
      else
        await this.told(
          w,
          t,
          actor,
          row,
          'graded',
          'examination',
          { id: row.id, result: row.result, position: row.position },
          names,
          'graded',
        );
      return presentExamination(row);
    });
  }

  /** Grades, moves, changes the examiners of, or (graded: a Moderator or Administrator) corrects an examination. */
  change(trainingId: number, id: number, patch: ExaminationPatch, actor: AuditActor): Promise<Examination> {
    return this.deps.writer.write(async (w) =>
      this.changeLocked(w, await this.deps.trainings.locked(w, trainingId), id, patch, actor, true),
    );
  }

  /**
   * `change` inside a write that holds the training's lock. `byRole` false: an examiner grading a
   * planned examination through a one-time link, whose link is the permission (the caller checks it).
   */
  async changeLocked(
    w: Write,
    t: TrainingRecord,
    id: number,
    patch: ExaminationPatch,
    actor: AuditActor,
    byRole: boolean,
  ): Promise<Examination> {
    const x = await this.find(w, t, id);
    const errors: FieldErrors = {};
    const given = patch.examiners !== undefined || patch.examiner_id !== undefined;
    const examiners = given ? examinersOf(patch, errors) : x.examiners;
    if (byRole) await this.authorize(w, actor, t, [...x.examiners, ...(examiners ?? [])], x.result !== null);
    const result = patch.result?.trim() || x.result;
    if (patch.result?.trim() === '') errors.result = [`Pick a result: ${EXAMINATION_RESULTS.join(', ')}.`];
    const values = {
      date: patch.examination_date?.trim() ?? x.examination_date,
      start: patch.start === undefined ? x.start : patch.start?.trim() || null,
      position: (patch.position ?? x.position).trim().toUpperCase(),
      result,
    };
    const moved = values.date !== x.examination_date || values.start !== x.start || values.position !== x.position;
    const reassigned = given && examiners !== null && examiners.join() !== x.examiners.join();
    const grading = x.result === null && result !== null;
    if (result === null && t.status < 0 && (moved || reassigned))
      throw new ConflictError('A closed training’s examinations cannot be moved.');
    const position = await this.checked(w, values, errors);
    // Eligibility is checked when planning (new examiners or position) and when grading.
    const check = grading || reassigned || values.position !== x.position;
    const field = patch.examiners ? 'examiners' : patch.examiner_id !== undefined ? 'examiner_id' : 'examiners';
    await this.eligible(w, t, check ? examiners : null, position, field, errors);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    if (!moved && !reassigned && result === x.result) return presentExamination(x);
    await w.repos.trainingExaminations.update(x.id, {
      examination_date: values.date,
      start: values.start,
      position: position!.callsign,
      result: result as ExaminationResult | null,
      updated_at: w.at,
    });
    if (reassigned) await w.repos.trainingExaminations.setExaminers(x.id, examiners);
    const row = await this.find(w, t, x.id);
    const all = await w.repos.staff.names([...row.examiners, ...x.examiners]);
    const facts = factsOf(row, all);
    const before = { date: x.examination_date, start: x.start, position: x.position, examiners: x.examiners };
    if (x.result !== null) {
      const detail = { id: x.id, date: row.examination_date, position: row.position, result: row.result, result_from: x.result };
      await this.told(w, t, actor, row, 'graded', 'examination_corrected', detail, all, row.result !== x.result ? 'corrected' : null);
    } else if (grading) {
      const detail = { id: x.id, date: row.examination_date, position: row.position, result: row.result };
      await this.told(w, t, actor, row, 'graded', 'examination_graded', detail, all, 'graded');
    } else {
      const removed = x.examiners.filter((c) => !row.examiners.includes(c));
      await this.told(w, t, actor, row, 'planned', 'examination_changed', { ...facts, from: before }, all, 'moved', removed);
    }
    return presentExamination(row);
  }

  /** Cancels a planned examination (a graded one: 409); the timeline keeps it. */
  cancel(trainingId: number, id: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      const x = await this.find(w, t, id);
      await this.authorize(w, actor, t, x.examiners, false);
      if (x.result !== null)
        throw new ConflictError(
          `The examination of ${x.examination_date} is graded (${x.result}); a graded examination cannot be cancelled.`,
        );
      await w.repos.trainingExaminations.remove(x.id);
      const names = await w.repos.staff.names(x.examiners);
      await this.told(w, t, actor, x, 'cancelled', 'examination_cancelled', { ...factsOf(x, names) }, names, 'cancelled');
    });
  }

  private async find(w: Write, t: TrainingRecord, id: number): Promise<ExaminationRow> {
    const x = isRowId(id) ? await w.repos.trainingExaminations.find(t.id, id) : undefined;
    if (!x) throw new NotFoundError('Examination');
    return x;
  }

  private async authorize(w: Write, actor: AuditActor, t: TrainingRecord, examiners: readonly number[], graded: boolean): Promise<void> {
    if (actor.kind !== 'member') return;
    authorize(await w.repos.roles.staffMember(actor.cid), 'examination', { area: t.area_id, examiners, graded });
  }

  /** The date, start, position and result checked; the position's row. */
  private async checked(w: Write, v: { date: string; start: string | null; position: string; result: string | null }, errors: FieldErrors) {
    if (!isDate(v.date)) errors.examination_date = ['The examination_date field must be a date, YYYY-MM-DD.'];
    if (v.start !== null && !isStart(v.start)) errors.start = ['The start field must be a time of day, HH:MM (UTC).'];
    if (v.result !== null && !isResult(v.result)) errors.result = [`The result must be one of: ${EXAMINATION_RESULTS.join(', ')}.`];
    const callsign = v.position.trim().toUpperCase();
    // A report may name no position; an examination is always at one.
    if (callsign === '') errors.position = ['The position field is required.'];
    const position = callsign === '' ? undefined : await w.repos.positions.findByCallsign(callsign);
    if (callsign !== '' && !position) errors.position = [`There is no position ${callsign}.`];
    return position;
  }

  /** The examiners' names; a 422 message naming each who may not examine at the position (when `examiners` is given). */
  private async eligible(
    w: Write,
    t: TrainingRecord,
    examiners: readonly number[] | null,
    position: { rating: number; callsign: string } | undefined,
    field: string,
    errors: FieldErrors,
  ): Promise<Map<number, string>> {
    const names = await w.repos.staff.names(examiners ?? []);
    if (examiners === null || !position) return names;
    const held = new Map<number, string[]>();
    for (const e of await w.repos.trainingExaminations.examinerRatings(t.area_id, w.at, examiners))
      held.set(e.user_id, [...(held.get(e.user_id) ?? []), e.rating ?? '']);
    const problems = examinerProblems(examiners, held, position.rating, t.area, position.callsign, (c) => nameOf(names, c));
    if (problems.length > 0) errors[field] = problems;
    return names;
  }

  /** Records the change: timeline, audit entry, event with its state, the student's mail and the examiners'. */
  private async told(
    w: Write,
    t: TrainingRecord,
    actor: AuditActor,
    x: ExaminationRow,
    state: State,
    action: string,
    detail: Record<string, unknown>,
    names: Map<number, string>,
    mailed: Told | null,
    removed: readonly number[] = [],
  ): Promise<void> {
    const examination = presentExamination(x);
    const when = `${whenText(x.examination_date, x.start)} at ${x.position}`;
    const who = andList(x.examiners.map((c) => nameOf(names, c)));
    const student: Record<Told, string> = {
      planned: `An examination is planned on ${when}, with ${who} as examiner${x.examiners.length > 1 ? 's' : ''}.`,
      moved: `Your examination is now on ${when}, with ${who} as examiner${x.examiners.length > 1 ? 's' : ''}.`,
      cancelled: `Your examination on ${when} is cancelled.`,
      corrected: `The result of your examination on ${when} was corrected: ${x.result ?? ''}.`,
      graded: `Examination on ${x.examination_date} at ${x.position}: ${x.result ?? ''}.`,
    };
    const lines = mailed === null ? null : [student[mailed]];
    await recordTrainingChanges(w, this.deps.config, [
      {
        actor,
        before: t,
        after: t,
        timeline: [{ action, detail }],
        event: { type: 'training.examination', data: { examination, training_id: t.id, state } },
        mail: lines ? { kind: 'examination', lines } : null,
        record: { examination: x.id, state, ...(x.result ? { result: x.result } : {}) },
      },
    ]);
    if (mailed === 'planned' || mailed === 'moved' || mailed === 'cancelled') await this.mailExaminers(w, t, x, names, mailed, removed);
  }

  private async mailExaminers(
    w: Write,
    t: TrainingRecord,
    x: ExaminationRow,
    names: Map<number, string>,
    kind: 'planned' | 'moved' | 'cancelled',
    removed: readonly number[],
  ): Promise<void> {
    const studentName = nameOf(await w.repos.staff.names([t.user_id]), t.user_id);
    const when = `${whenText(x.examination_date, x.start)} at ${x.position}`;
    const of = `the ${t.area} examination of ${studentName} for ${t.ratings.join(', ')}`;
    const people = await mailableMembers(w, [...x.examiners, ...removed], 'training');
    const subject = { planned: 'Examination planned', moved: 'Examination moved', cancelled: 'Examination cancelled' }[kind];
    await w.mail(
      people.flatMap((p) => {
        if (!p.email) return [];
        const others = x.examiners.filter((c) => c !== p.id).map((c) => nameOf(names, c));
        const with_ = others.length === 0 ? 'as its only examiner' : `with ${andList(others)}`;
        const line = removed.includes(p.id)
          ? `You no longer examine ${of}, now on ${when}.`
          : kind === 'cancelled'
            ? `${capital(of)} on ${when} is cancelled.`
            : `You examine ${of} ${kind === 'moved' ? 'now ' : ''}on ${when}, ${with_}.`;
        return [
          examinerMail({
            siteName: this.deps.config.siteName,
            publicUrl: this.deps.config.publicUrl,
            to: p.email,
            firstName: p.first_name,
            subject: removed.includes(p.id) ? 'Examination changed' : subject,
            lines: [line],
          }),
        ];
      }),
    );
  }
}

const capital = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;
const nameOf = (names: Map<number, string>, cid: number) => (names.has(cid) ? `${names.get(cid)!} (${cid})` : `CID ${cid}`);

/** The examiners a body names: `examiners`, or `examiner_id` alone (§18); null when neither, or refused. */
function examinersOf(input: ExaminationPatch, errors: FieldErrors): number[] | null {
  const list = input.examiners ? [...input.examiners] : input.examiner_id !== undefined ? [input.examiner_id] : null;
  const field = input.examiners ? 'examiners' : 'examiner_id';
  if (list === null) return null;
  if (!list.every(isRowId))
    errors[field] = [field === 'examiners' ? 'Each examiner is named by their CID (a number).' : 'Give the examiner’s CID (a number).'];
  else if (list.length < 1 || list.length > MAX_EXAMINERS) errors.examiners = [`Name one or two examiners.`];
  else if (new Set(list).size !== list.length) errors.examiners = ['An examiner is named twice.'];
  if (input.examiners && input.examiner_id !== undefined && input.examiner_id !== list[0])
    errors.examiner_id = ['examiner_id is the first examiner: give the same CID as the first of examiners, or only one of the two.'];
  return Object.keys(errors).length > 0 ? null : list;
}

const factsOf = (x: ExaminationRow, names: Map<number, string>): ExaminationFacts => ({
  id: x.id,
  date: x.examination_date,
  start: x.start,
  position: x.position,
  examiners: x.examiners,
  examiner_names: x.examiners.map((c) => nameOf(names, c)),
});
