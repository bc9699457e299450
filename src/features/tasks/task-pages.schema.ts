// What the tasks pages (contract §21) take: path parameters, queries and form fields.
import { Checkbox, Csrf, Field, IdPath, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

export const tasksPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const closeTaskForm = {
  ...hidden,
  params: IdPath(),
  body: pageForm({ status: Field(), closed_message: Field({ maxLength: 4000 }), _csrf: Csrf }),
};
export const requestPage = { ...hidden, params: IdPath(), querystring: pageForm({ type: Field(), rating: Field() }) };
export const requestForm = {
  ...hidden,
  params: IdPath(),
  body: pageForm({
    type: Field(),
    assignee_id: Field(),
    rating: Field(),
    message: Field({ maxLength: 4000 }),
    theory_exam_passed: Checkbox(),
    _csrf: Csrf,
  }),
};
export const retryHubForm = { ...hidden, params: IdPath(), body: pageForm({ _csrf: Csrf }) };
