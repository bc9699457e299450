// What the member's settings pages take (./settings.routes.ts): page forms of the shared atoms.
import { CheckboxList, Csrf, Field, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

export const settingsPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const settingsForm = {
  ...hidden,
  body: pageForm({
    look: Field({ maxLength: 20 }),
    mail: CheckboxList(Field({ maxLength: 40 })),
    _csrf: Csrf,
  }),
};
export const dataDownload = { ...hidden };
