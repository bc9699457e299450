// The questions VATEUD Core is asked live (contract §22): its theory exams and a member's results and
// assignments, through vateud-http.ts with the question's own deadline (5 s). Anything but a
// 2xx JSON answer of the expected shape is "could not be asked", with one line naming the host.
import { hubData, hubRows } from './driver.domain.js';
import type { VateudHttp } from './vateud-http.js';
import type { DivisionQuestions, HubAnswer, HubAssignment, HubExam, HubExamResult } from './questions.domain.js';

type Row = Record<string, unknown>;

export class VateudQuestions implements DivisionQuestions {
  readonly host: string;

  constructor(
    private readonly hub: VateudHttp,
    private readonly timeoutMs: number,
  ) {
    this.host = hub.host;
  }

  async exams(): Promise<HubAnswer<HubExam[]>> {
    const got = await this.get('/facility/training/exams');
    if (!got.ok) return got;
    const list = hubRows(got.value);
    if (list === null) return this.unreadable();
    return {
      ok: true,
      value: list.map((e) => ({
        id: Number(e['id']),
        name: typeof e['name'] === 'string' ? e['name'] : '',
        flagExamType: Number(e['flag_exam_type']),
      })),
    };
  }

  async memberExams(cid: number): Promise<HubAnswer<{ results: HubExamResult[]; assignments: HubAssignment[] }>> {
    const got = await this.get(`/facility/user/${cid}/exams`);
    if (!got.ok) return got;
    const data = hubData(got.value);
    const results = rowsOf(isRow(data) ? data['results'] : undefined);
    const assignments = rowsOf(isRow(data) ? (data['assignments'] ?? []) : undefined);
    if (results === null || assignments === null) return this.unreadable();
    return {
      ok: true,
      value: {
        results: results.map((r) => ({
          examId: Number(r['exam_id']),
          flagExamType: Number(r['flag_exam_type']),
          // The hub writes booleans; 1 and "1" are read the same way.
          passed: r['passed'] === true || r['passed'] === 1 || r['passed'] === '1',
          expiry: typeof r['expiry'] === 'string' ? r['expiry'] : null,
        })),
        assignments: assignments.map((a) => ({
          examId: Number(a['exam_id']),
          at: typeof a['created_at'] === 'string' ? a['created_at'] : null,
        })),
      },
    };
  }

  private unreadable(): { ok: false; error: string } {
    return { ok: false, error: `${this.host}: an answer of an unexpected shape` };
  }

  private async get(path: string): Promise<HubAnswer<unknown>> {
    const r = await this.hub.call('GET', path, { timeoutMs: this.timeoutMs, maxBytes: 1024 * 1024 });
    if (!r.ok) return { ok: false, error: r.error };
    if (r.status < 200 || r.status >= 300) return { ok: false, error: `${this.host}: HTTP ${r.status}` };
    if (!r.json) return { ok: false, error: `${this.host}: an answer that is not JSON` };
    return { ok: true, value: r.body };
  }
}

const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The objects of a list; null when it is not a list. */
function rowsOf(x: unknown): Row[] | null {
  return Array.isArray(x) ? x.filter(isRow) : null;
}
