// How every command prints: values from outside (names, URLs, file names, the network's responses)
// are made printable (src/core/domain/printable.ts), so hostile data cannot drive the operator's terminal.
import { printable, printableJson, printableTable } from '../domain/printable.js';

/** A template whose interpolated values are made printable; its own text is kept as written. */
export function show(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((text, part, i) => text + printable(String(values[i - 1])) + part);
}

/** A message for the operator, on stderr (stdout carries only results). */
export function tell(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** A result line on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** One JSON document on one line of stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${printableJson(value)}\n`);
}

/** Aligned columns on stdout, a header row first. */
export function printTable(rows: string[][]): void {
  process.stdout.write(`${printableTable(rows).join('\n')}\n`);
}

/** "1 booking", "2 bookings": a count with its noun (one whose plural adds an s). */
export function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}
