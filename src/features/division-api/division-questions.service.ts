// The live questions to the division's hub (contract §22): whether a student passed the theory exam
// a solo needs, and a member's exam results and assignments for the staff person page. Asked
// outside any transaction; each request has 5 s (questions.domain.ts says how answers are read).
import type { Clock } from '../../core/domain/time.js';
import { UpstreamError, ValidationError } from '../../core/domain/errors.js';
import { ratingCode } from '../members/domain/ratings.js';
import {
  type DivisionQuestions,
  examFlagsOf,
  examNameOf,
  flagName,
  hasExpired,
  hubInstant,
  type MemberHubExams,
  passedTheory,
} from './questions.domain.js';

export class DivisionQuestionsService {
  constructor(private readonly o: { questions: DivisionQuestions; clock: Clock }) {}

  /** The hub's host, for a line saying it could not be reached. */
  get host(): string {
    return this.o.questions.host;
  }

  /**
   * Before a solo is issued in a training for `rating`: the student passed its theory exam on the hub
   * (422 on `field` naming the exam otherwise; 502 naming the hub's host when it cannot be asked).
   * A rating without a theory exam on the hub (S1, say) asks nothing.
   */
  async requireTheoryExam(cid: number, rating: number, field: string): Promise<void> {
    if (examFlagsOf(rating) === null) return;
    const exam = examNameOf(rating);
    const got = await this.o.questions.memberExams(cid);
    if (!got.ok)
      throw new UpstreamError(
        `The division's hub could not be asked whether user ${cid} passed the ${exam} (${got.error}); nothing was stored. Try again later.`,
      );
    if (!passedTheory(got.value.results, rating, this.o.clock()))
      throw new ValidationError({
        [field]: [`User ${cid} has not passed the ${exam} on the hub, which a solo in a training for ${ratingCode(rating)} needs.`],
      });
  }

  /** A member's results and assignments, exams by name; or why the hub could not be asked. */
  async memberExams(cid: number): Promise<MemberHubExams> {
    const [exams, member] = await Promise.all([this.o.questions.exams(), this.o.questions.memberExams(cid)]);
    if (!member.ok) return { ok: false, host: this.o.questions.host, error: member.error };
    // Without the hub's list of exams, a name from the result's type still beats a number.
    const names = new Map(exams.ok ? exams.value.map((e) => [e.id, { name: e.name, flag: e.flagExamType }]) : []);
    const nameOf = (id: number, flag: number | null) => {
      const known = names.get(id);
      return known?.name || flagName(flag ?? known?.flag ?? null, id);
    };
    const now = this.o.clock();
    return {
      ok: true,
      results: member.value.results.map((r) => ({
        exam: nameOf(r.examId, r.flagExamType),
        passed: r.passed,
        expiry: hubInstant(r.expiry),
        expired: hasExpired(r, now),
      })),
      assignments: member.value.assignments.map((a) => ({ exam: nameOf(a.examId, null), at: hubInstant(a.at) })),
    };
  }
}
