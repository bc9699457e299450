// Text from outside (a name, a URL, the network's response, a file name) as a terminal may show it:
// on one line, and without characters a terminal acts on. Pure.

// C0 and C1 controls, DEL, line/paragraph separators, invisible marks and bidirectional controls.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** Writes each unprintable character as a visible \uXXXX escape (the JSON spelling, so --json and tables agree). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON safe to print: escapes what JSON.stringify leaves (DEL, C1, bidi); \uXXXX inside strings parses to the same value. */
export function printableJson(value: unknown): string {
  return printable(JSON.stringify(value));
}

/** Aligned columns, each cell made printable; the last column is not padded. */
export function printableTable(rows: string[][]): string[] {
  const cells = rows.map((r) => r.map(printable));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
