// The iCalendar writer's rules on any text: folding and escaping are exactly reversible, lines
// stay within 75 octets, and no fold cuts a UTF-8 sequence.
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, utcDateTime } from '../../../src/features/calendar/icalendar.view.js';

const strict = new TextDecoder('utf-8', { fatal: true });
// Any text, with emphasis on what is hard: multi-byte characters, escapes, line breaks.
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('ø', '😀', '✈', ',', ';', '\\', '\n', '\r\n', 'a', ' '),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 200,
});

describe('foldLine', () => {
  it('keeps every line within 75 octets, never splits a character, and unfolds to the original', () => {
    fc.assert(
      fc.property(text, (value) => {
        const line = `LOCATION:${escapeText(value)}`;
        const folded = foldLine(line);
        const physical = folded.split('\r\n');
        physical.forEach((p, i) => {
          const bytes = Buffer.from(p);
          expect(bytes.length).toBeLessThanOrEqual(75);
          expect(() => strict.decode(bytes)).not.toThrow();
          if (i > 0) expect(p.startsWith(' ')).toBe(true);
        });
        expect(physical.join('\r\n').replace(/\r\n /g, '')).toBe(line);
      }),
    );
  });

  it('leaves a line of 75 octets alone and folds one of 76', () => {
    expect(foldLine('X'.repeat(75))).toBe('X'.repeat(75));
    expect(foldLine('X'.repeat(76))).toBe(`${'X'.repeat(75)}\r\n X`);
  });
});

describe('escapeText', () => {
  it('escapes , ; \\ and line breaks so that a parser reads back the value', () => {
    expect(escapeText('a,b;c\\d\ne\r\nf')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
    fc.assert(
      fc.property(text, (value) => {
        const body = [
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'BEGIN:VEVENT',
          foldLine(`LOCATION:${escapeText(value)}`),
          'END:VEVENT',
          'END:VCALENDAR',
          '',
        ].join('\r\n');
        const event = new ICAL.Component(ICAL.parse(body) as unknown[]).getFirstSubcomponent('vevent');
        const expected = value.replace(/\r\n|\r/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
        expect(event?.getFirstPropertyValue('location') ?? '').toBe(expected);
      }),
    );
  });
});

describe('utcDateTime', () => {
  it('writes the UTC form', () => {
    expect(utcDateTime(Date.UTC(2026, 11, 1, 10, 0, 0))).toBe('20261201T100000Z');
    expect(utcDateTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('20260102T030405Z');
  });
});
