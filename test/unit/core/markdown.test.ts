// The Markdown of report text on pages (contract §20): CommonMark with raw HTML off and links limited
// to http:, https: and mailto:. None of the usual XSS payloads survives as markup.
import { describe, expect, it } from 'vitest';
import { markdownHtml } from '../../../src/core/web/markdown.js';

const render = (text: string) => String(markdownHtml(text));
/** Every tag the output opens: only these are Markdown's own. */
const tags = (out: string) => [...out.matchAll(/<([a-z0-9]+)[\s>/]/gi)].map((m) => m[1]!.toLowerCase());
const SAFE_TAGS = new Set(['div', 'p', 'a', 'strong', 'em', 'br', 'ul', 'ol', 'li', 'code', 'pre', 'h1', 'h2', 'h3', 'blockquote', 'img']);

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<div onclick="alert(1)">raw block</div>',
  '<!-- comment --><style>body{display:none}</style>',
  '[a](javascript:alert(1))',
  '[a](JaVaScRiPt:alert(1))',
  '[a](&#106;avascript:alert(1))',
  '[a](&#x6A;&#x61;vascript:alert(1))',
  '[a](java%0ascript:alert(1))',
  '[a](%6Aavascript:alert(1))',
  '[a](java\\script:alert(1))',
  '[a](  javascript:alert(1))',
  '[a](<javascript:alert(1)>)',
  '[a](vbscript:msgbox(1))',
  '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![i](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![i](javascript:alert(1))',
  '<javascript:alert(1)>',
  '<JAVASCRIPT:alert(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  '[x]: javascript:alert(1)\n\n[x]',
  '[x]\n\n[x]: data:text/html,hi',
  '[a](file:///etc/passwd)',
  '[a](https://ok.example "a" onmouseover="alert(1)")',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
];

describe('markdownHtml', () => {
  it('renders Markdown', () => {
    expect(render('**clear** and *calm*\nnext line')).toBe(
      '<div class="markdown"><p><strong>clear</strong> and <em>calm</em>\nnext line</p>\n</div>',
    );
    expect(render('- one\n- two')).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
  });

  it('keeps http:, https: and mailto: links and autolinks', () => {
    expect(render('[site](https://example.org/a?b=1)')).toContain('<a href="https://example.org/a?b=1">site</a>');
    expect(render('[site](HTTP://example.org)')).toContain('<a href="HTTP://example.org">site</a>');
    expect(render('<https://example.org>')).toContain('<a href="https://example.org">https://example.org</a>');
    expect(render('[mail](mailto:ada@example.org)')).toContain('<a href="mailto:ada@example.org">mail</a>');
  });

  it.each(PAYLOADS)('leaves no markup of its own from %j', (payload) => {
    const out = render(payload);
    for (const tag of tags(out)) expect(SAFE_TAGS, `<${tag}> in ${out}`).toContain(tag);
    expect(out).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    for (const m of out.matchAll(/(?:href|src)="([^"]*)"/g)) expect(m[1]).toMatch(/^(?:https?|mailto):/i);
    expect(out).not.toMatch(/<(?:script|style|iframe|svg)/i);
  });

  it('refuses links that are not http:, https: or mailto:, relative ones too', () => {
    expect(render('[r](/staff)')).not.toContain('<a');
    expect(render('[a](ftp://example.org)')).not.toContain('<a');
  });
});
