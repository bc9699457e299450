// GET /staff/templates and GET /staff/templates/{tid} (contract §20): the report templates of the
// areas whose Moderator or Administrator the viewer is — each with Edit and Delete — and a form to
// add one; a template's own page edits it.
import type { TemplateRow } from '../templates.repository.js';
import { TEMPLATE_CONTENT_MAX, TEMPLATE_NAME_MAX } from '../domain.js';
import { type Html, html } from '../../../core/web/html.js';
import { markdownHtml } from '../../../core/web/markdown.js';
import { empty, field, formAction, type FormState, formError, options, staffPage, type StaffFrame, valueOf } from '../../roles/index.js';

export interface TemplatesPage extends StaffFrame {
  templates: readonly TemplateRow[];
  /** The names of the areas the viewer keeps templates for. */
  areas: readonly string[];
  state: FormState;
  notice: string | null;
}

const inputs = (state: FormState, form: string, initial: { name: string; content: string }) => ({
  name: (id: string, aria: Html) =>
    html`<input
      type="text"
      id="${id}"
      name="name"
      maxlength="${TEMPLATE_NAME_MAX}"
      value="${valueOf(state, form, 'name', initial.name)}"
      ${aria}
    />`,
  content: (id: string, aria: Html) =>
    html`<textarea id="${id}" name="content" rows="10" ${aria}>${valueOf(state, form, 'content', initial.content)}</textarea>`,
});

const hints = {
  name: `1 to ${TEMPLATE_NAME_MAX} characters, not used by another template of the area`,
  content: `Markdown, 1 to ${TEMPLATE_CONTENT_MAX.toLocaleString('en')} characters`,
};

export function templatesPage(p: TemplatesPage): Buffer {
  const { state } = p;
  const control = inputs(state, 'template-new', { name: '', content: '' });
  const area = (id: string, aria: Html) =>
    html`<select id="${id}" name="area" ${aria}>
      ${options(p.areas, valueOf(state, 'template-new', 'area', p.areas[0] ?? ''))}
    </select>`;
  // prettier-ignore
  const list = p.templates.length === 0 ? empty('No templates yet.') : html`<ul class="reports">${p.templates.map((t) => html`<li><h3>${t.name} <span class="hint">(${t.area})</span></h3>
<details><summary>Text</summary>${markdownHtml(t.content)}</details>
<div class="actions"><a href="/staff/templates/${t.id}" aria-label="${`Edit the template ${t.name}`}">Edit</a>
<form method="post" action="/staff/templates/${t.id}/delete" class="inline">${p.csrf}<button type="submit" class="secondary" aria-label="${`Delete the template ${t.name}`}">Delete</button></form></div></li>`)}</ul>`;
  // prettier-ignore
  const main = html`<p>Mentors start a report from one of these: the report form lists the templates of the training's area.</p>
<section aria-labelledby="templates-title"><h2 id="templates-title">Templates</h2>${list}</section>
<section aria-labelledby="template-new-title"><h2 id="template-new-title">Add a template</h2>
<form method="post" action="${formAction('/staff/templates', 'template-new')}" class="staff-form" novalidate>${p.csrf}
${formError(state, 'template-new', ['area', 'name', 'content'])}
${field({ form: 'template-new', name: 'area', label: 'Area', state, control: area })}
${field({ form: 'template-new', name: 'name', label: 'Name', state, hint: hints.name, control: control.name })}
${field({ form: 'template-new', name: 'content', label: 'Text', state, hint: hints.content, control: control.content })}
<div class="actions"><button type="submit">Add template</button></div></form></section>`;
  return staffPage(p, 'Report templates', main, p.notice);
}

export interface TemplatePage extends StaffFrame {
  template: TemplateRow;
  state: FormState;
}

export function templatePage(p: TemplatePage): Buffer {
  const t = p.template;
  const control = inputs(p.state, 'template', { name: t.name, content: t.content });
  // prettier-ignore
  const main = html`<p><a href="/staff/templates">All templates</a></p><p>Area: ${t.area}</p>
<form method="post" action="${formAction(`/staff/templates/${t.id}`, 'template')}" class="staff-form" novalidate>${p.csrf}
${formError(p.state, 'template', ['name', 'content'])}
${field({ form: 'template', name: 'name', label: 'Name', state: p.state, hint: hints.name, control: control.name })}
${field({ form: 'template', name: 'content', label: 'Text', state: p.state, hint: hints.content, control: control.content })}
<div class="actions"><button type="submit">Save template</button> <a href="/staff/templates">Cancel</a></div></form>`;
  return staffPage(p, `Template ${t.name}`, main);
}
