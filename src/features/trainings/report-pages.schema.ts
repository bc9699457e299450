// What the report and template pages (contract §20) take, as page forms of the shared atoms.
import { Type } from 'typebox';
import { Checkbox, Csrf, Field, pageForm, Prose } from '../../core/web/form-atoms.js';
import { FORM_LIMITS } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;
const id = () => Type.Integer({ minimum: 1, maximum: FORM_LIMITS.id });
const ReportPath = Type.Object({ id: id(), rid: id() });
const TemplatePath = Type.Object({ tid: id() });
const OnlyToken = pageForm({ _csrf: Csrf });

export const editReportPage = { ...hidden, params: ReportPath, querystring: pageForm({ template: Field() }) };
export const editReportForm = {
  ...hidden,
  params: ReportPath,
  body: pageForm({ report_date: Field(), position: Field(), content: Prose(), improve: Prose(), draft: Checkbox(), _csrf: Csrf }),
};
export const reportActionForm = { ...hidden, params: ReportPath, body: OnlyToken };

export const templatesPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const templatePage = { ...hidden, params: TemplatePath };
export const createTemplateForm = { ...hidden, body: pageForm({ area: Field(), name: Field(), content: Prose(), _csrf: Csrf }) };
export const updateTemplateForm = { ...hidden, params: TemplatePath, body: pageForm({ name: Field(), content: Prose(), _csrf: Csrf }) };
export const deleteTemplateForm = { ...hidden, params: TemplatePath, body: OnlyToken };
