import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, Html } from '../../../src/core/web/html.js';

describe('html`…`', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const value = `<script>alert('x')</script>"&`;
    expect(html`<p title="${value}">${value}</p>`.toString()).toBe(
      '<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;</p>',
    );
  });

  it('keeps fragments it made, and lists of them, as markup', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>`.toString()).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.toString()).toBe('0');
  });

  it('cannot be handed markup from outside', () => {
    expect(() => new Html(Symbol('html') as never, '<b>')).toThrow(TypeError);
  });

  it('leaves no markup character unescaped in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (s) => {
        expect(escapeHtml(s)).not.toMatch(/[<>"']/);
        expect(html`${s}`.toString()).toBe(escapeHtml(s));
      }),
    );
  });
});
