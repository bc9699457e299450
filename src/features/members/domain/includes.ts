// Which relations GET /api/users understands, and what a request asked for.

/** Which revision of the API a caller speaks (the Api-Variant header, or the key's default). */
export type ApiVariant = 'newer' | 'older';

/** Relations that pick users; the response holds the union of what they pick. */
export const SELECTING_RELATIONS = ['allUsers', 'endorsements', 'roles', 'training'] as const;
/** Relations that only add fields to the users picked by the others. */
export const FIELD_RELATIONS = ['name', 'email', 'divisions', 'activeAreas'] as const;

export type Relation = (typeof SELECTING_RELATIONS)[number] | (typeof FIELD_RELATIONS)[number];
export type Includes = Record<Relation, boolean>;

/** Relation names valid in a variant, in documentation order (case-sensitive). */
export function validRelations(variant: ApiVariant): Relation[] {
  const all: Relation[] = [...SELECTING_RELATIONS, ...FIELD_RELATIONS];
  // The older variant predates per-area activity (docs/api.md, variants).
  return variant === 'older' ? all.filter((r) => r !== 'activeAreas') : all;
}

export type IncludeResult = { ok: true; includes: Includes } | { ok: false; unknown: string[]; valid: Relation[] };

/**
 * Reads the include list. Blank entries (from `include=` or a trailing comma) name nothing and
 * are skipped; any other unknown name fails the whole request.
 */
export function parseIncludes(names: readonly string[] | undefined, variant: ApiVariant): IncludeResult {
  const valid = validRelations(variant);
  const includes = Object.fromEntries([...SELECTING_RELATIONS, ...FIELD_RELATIONS].map((r) => [r, false])) as Includes;
  const unknown: string[] = [];
  for (const raw of names ?? []) {
    const name = raw.trim();
    if (name === '') continue;
    if ((valid as string[]).includes(name)) includes[name as Relation] = true;
    else if (!unknown.includes(name)) unknown.push(name);
  }
  return unknown.length > 0 ? { ok: false, unknown, valid } : { ok: true, includes };
}

export function unknownRelationMessage(unknown: readonly string[], valid: readonly Relation[]): string {
  const names = unknown.map((n) => `"${n}"`).join(', ');
  return `Unknown include relation${unknown.length > 1 ? 's' : ''} ${names}; valid relations are: ${valid.join(', ')}.`;
}

/** True when at least one relation picks users; without one the result is an empty list. */
export function selectsUsers(includes: Includes): boolean {
  return SELECTING_RELATIONS.some((r) => includes[r]);
}

export const ONLY_ATC_ACTIVE_VALUES = ['true', 'false', '1', '0'] as const;
export type OnlyAtcActiveValue = (typeof ONLY_ATC_ACTIVE_VALUES)[number];

export function parseOnlyAtcActive(value: OnlyAtcActiveValue | undefined): boolean {
  return value === 'true' || value === '1';
}
