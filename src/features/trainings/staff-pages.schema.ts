// What the staff training pages (contract §18, src/features/trainings/staff.routes.ts) take, declared as the
// other staff pages' are (src/features/roles/staff-pages.schema.ts): a field may come more than once.
import { Type } from 'typebox';

const Field = Type.Union([Type.String({ maxLength: 25_000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 })]);
const hidden = { hide: true } as const;
const IdPath = Type.Object({ id: Type.String({ maxLength: 40 }) });
const form = (...names: string[]) => Type.Object(Object.fromEntries([...names, '_csrf'].map((n) => [n, Type.Optional(Field)])));

export const staffTrainingsPage = {
  ...hidden,
  querystring: Type.Object({ area: Type.Optional(Field), status: Type.Optional(Field), done: Type.Optional(Field) }),
};
export const staffTrainingPage = { ...hidden, params: IdPath, querystring: Type.Object({ done: Type.Optional(Field) }) };
export const createTrainingForm = { ...hidden, body: form('user_id', 'area', 'type', 'ratings', 'status') };
export const trainingStatusForm = { ...hidden, params: IdPath, body: form('status', 'closed_reason') };
export const trainingChangeForm = { ...hidden, params: IdPath, body: form('type', 'mentors', 'paused') };
export const trainingReportForm = { ...hidden, params: IdPath, body: form('report_date', 'position', 'content', 'improve', 'draft') };
export const trainingExamForm = { ...hidden, params: IdPath, body: form('examination_date', 'position', 'examiner_id', 'result') };
