// Safe HTML from tagged templates: every interpolated value is escaped, unless it is a fragment
// this module made (html`…` or a list of them), so no value can open a tag or leave an attribute.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Only this module holds it, so only html`…` can make a fragment. */
const MADE_HERE = Symbol('html');

/** Markup that is already safe: made by html`…`, never from a plain string. */
export class Html {
  readonly #markup: string;
  constructor(token: typeof MADE_HERE, markup: string) {
    if (token !== MADE_HERE) throw new TypeError('Html fragments are made with html`…`');
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(MADE_HERE, out);
}

/**
 * Markup of a renderer that escapes every character of its input itself: the Markdown renderer
 * (src/core/web/markdown.ts, raw HTML off, links checked) is the only caller.
 */
export function renderedMarkup(markup: string): Html {
  return new Html(MADE_HERE, markup);
}
