import { describe, expect, it } from 'vitest';
import { printable, printableJson, printableTable } from '../../../src/core/domain/printable.js';

describe('printable', () => {
  it('escapes C0, DEL, C1 and bidirectional controls visibly, and leaves other text alone', () => {
    expect(printable('a\u001b[31mb\u0007c\u007fd\u009be\u202ef\u2066g\u061ch\u200fi')).toBe(
      'a\\u001b[31mb\\u0007c\\u007fd\\u009be\\u202ef\\u2066g\\u061ch\\u200fi',
    );
    expect(printable('Kastrup Tower — København ✈ 東京')).toBe('Kastrup Tower — København ✈ 東京');
    expect(printable('two\nlines\r')).toBe('two\\u000alines\\u000d');
  });

  it('keeps JSON valid and equal to the value, with nothing raw left in it', () => {
    const value = { url: 'https://x.example/\u202e\u009b\u007f', nested: ['\u001b]0;t\u0007', 1, null] };
    const text = printableJson(value);
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('aligns a table on the escaped cells', () => {
    expect(
      printableTable([
        ['A', 'B'],
        ['x\u001b', 'y'],
      ]),
    ).toEqual(['A        B', 'x\\u001b  y']);
  });
});
