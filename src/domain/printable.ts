// Text from outside (a name, a URL, the network's answer, a file name) as a terminal may show it:
// on one line, and without characters a terminal acts on. Pure.

/**
 * C0 controls (ESC starts escape sequences, OSC window titles, BEL rings), DEL, C1 controls (U+009B
 * is a one-character CSI), line and paragraph separators, invisible format marks, and every
 * bidirectional control (embeddings, overrides and isolates reorder what follows them on the line).
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** Writes each unprintable character as a visible \uXXXX escape (the JSON spelling, so --json and tables agree). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A value as JSON whose text is safe to print: JSON.stringify escapes only C0 controls, so DEL,
 * C1 and the bidirectional controls are escaped here too. They occur only inside strings, where
 * \uXXXX means the same character: the JSON parses to exactly the same value.
 */
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
