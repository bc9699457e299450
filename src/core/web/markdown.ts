// Markdown on pages (contract §20: report text, templates): CommonMark by markdown-it with raw HTML
// off, so every tag in the text is shown as text, and links and images limited to http:, https: and
// mailto: (a javascript: or data: link stays text). The API and mails keep the Markdown as written.
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import { type Html, renderedMarkup } from './html.js';

/** The schemes a link or an image may use; anything else (relative, javascript:, data:, file:) is refused. */
const ALLOWED = /^(?:https?|mailto):/i;

let md: MarkdownIt | undefined;

// Loaded on the first page that shows Markdown: every CLI command and a server start would
// otherwise pay for parsing the library (a tenth of a CLI command's start-up).
function renderer(): MarkdownIt {
  if (md) return md;
  const Markdown = createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt;
  md = new Markdown({ html: false, linkify: false, typographer: false, breaks: false });
  // markdown-it hands over the destination decoded (entities, backslashes) and %-encoded: a control
  // character or a space inside a scheme cannot pass as a letter of it.
  md.validateLink = (url: string): boolean => ALLOWED.test(url.trim());
  return md;
}

/** The Markdown as HTML, in a <div class="markdown">. */
export function markdownHtml(text: string): Html {
  return renderedMarkup(`<div class="markdown">${renderer().render(text)}</div>`);
}
