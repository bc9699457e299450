// Report templates (contract §20): Markdown starting texts a Moderator or Administrator keeps per
// area (name 1–80 characters, unique in the area; content 1–20000). The report form offers the
// training area's templates; picking one opens the form with its text.
import type { AuditActor } from '../audit/domain/index.js';
import { NotFoundError, ValidationError, type FieldErrors } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import type { StaffView } from '../roles/index.js';
import type { TemplateRow } from './templates.repository.js';
import { TEMPLATE_CONTENT_MAX, TEMPLATE_NAME_MAX } from './domain.js';
import type { Deps, Write } from '../../app/deps.js';

export interface TemplateInput {
  /** The area's name (creating only). */
  area?: string;
  name: string;
  content: string;
}

const target = (id: number) => `report_template:${id}`;
const audited = (t: { area: string; name: string; content: string }) => ({ area: t.area, name: t.name, content: t.content });

export class ReportTemplatesService {
  constructor(private readonly deps: Deps<'writer' | 'repos'>) {}

  /** The templates of these areas. */
  list(areaIds: readonly number[]): Promise<TemplateRow[]> {
    return this.deps.repos.reportTemplates.list(areaIds);
  }

  /** One template, when the viewer keeps the templates of its area; null otherwise. */
  async find(view: StaffView, id: number): Promise<TemplateRow | null> {
    const t = Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647 ? await this.deps.repos.reportTemplates.find(id) : undefined;
    return t && view.areas.some((a) => a.id === t.area_id) ? t : null;
  }

  create(input: TemplateInput, actor: AuditActor): Promise<number> {
    return this.deps.writer.write(async (w) => {
      const areas = await w.repos.positions.areas();
      const area = areas.find((a) => a.name.toLowerCase() === (input.area ?? '').trim().toLowerCase());
      const errors = checked(input);
      if (!area) errors.area = ['Choose one of your areas.'];
      else if (actor.kind === 'member') authorize(await w.repos.roles.staffMember(actor.cid), 'templates', { area: area.id });
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const [name, content] = [input.name.trim(), input.content.trim()];
      const id = await w.repos.reportTemplates.add({ area_id: area!.id, name, content, created_at: w.at, updated_at: w.at });
      if (id === undefined) throw new ValidationError({ name: [`${area!.name} already has a template named ${name}.`] });
      await w.audit(actor, [
        { action: 'report_template.created', target: target(id), before: null, after: audited({ area: area!.name, name, content }) },
      ]);
      return id;
    });
  }

  update(id: number, input: TemplateInput, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const before = await this.authorized(w, id, actor);
      const errors = checked(input);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const [name, content] = [input.name.trim(), input.content.trim()];
      if (!(await w.repos.reportTemplates.update(id, { name, content, updated_at: w.at })))
        throw new ValidationError({ name: [`${before.area} already has a template named ${name}.`] });
      await w.audit(actor, [
        { action: 'report_template.updated', target: target(id), before: audited(before), after: audited({ ...before, name, content }) },
      ]);
    });
  }

  remove(id: number, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const before = await this.authorized(w, id, actor);
      await w.repos.reportTemplates.remove(id);
      await w.audit(actor, [{ action: 'report_template.deleted', target: target(id), before: audited(before), after: null }]);
    });
  }

  private async authorized(w: Write, id: number, actor: AuditActor): Promise<TemplateRow> {
    const t = Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647 ? await w.repos.reportTemplates.find(id) : undefined;
    if (!t) throw new NotFoundError('Template');
    if (actor.kind === 'member') authorize(await w.repos.roles.staffMember(actor.cid), 'templates', { area: t.area_id });
    return t;
  }
}

function checked(input: TemplateInput): FieldErrors {
  const errors: FieldErrors = {};
  const name = input.name.trim();
  const content = input.content.trim();
  if (name.length === 0 || name.length > TEMPLATE_NAME_MAX) errors.name = [`The name must be 1 to ${TEMPLATE_NAME_MAX} characters.`];
  if (content.length === 0 || content.length > TEMPLATE_CONTENT_MAX)
    errors.content = [`The template must be 1 to ${TEMPLATE_CONTENT_MAX} characters.`];
  return errors;
}
