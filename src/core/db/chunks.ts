// Rows per statement, for inserts and `IN` lists of any length: a fixed number of statements per
// chunk of records, never one per record.

/** Records per statement: a dozen columns each stays far below both databases' parameter limits. */
export const CHUNK = 400;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
