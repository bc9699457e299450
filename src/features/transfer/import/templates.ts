// The report_templates section of an import file (contract §20): Markdown starting texts per area.
import { gives, instant, record, reqStr } from './fields.js';
import type { ImportTemplate } from './plan.js';

const TEMPLATE_FIELDS = ['area', 'name', 'content', 'created_at', 'updated_at'] as const;

export function parseTemplate(t: unknown, path: string): ImportTemplate {
  const o = record(t, path, TEMPLATE_FIELDS);
  const createdAt = gives(o, 'created_at') ? instant(o, 'created_at', path, true) : null;
  return {
    area: reqStr(o, 'area', path, 100),
    name: reqStr(o, 'name', path, 80),
    content: reqStr(o, 'content', path, 20_000),
    created_at: createdAt,
    updated_at: gives(o, 'updated_at') ? (instant(o, 'updated_at', path, true) ?? createdAt) : createdAt,
    path,
  };
}
