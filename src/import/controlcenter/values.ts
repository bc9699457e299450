// Control Center's values as the import format writes them, and the report of one kind of rows.
export interface KindReport {
  read: number;
  imported: number;
  skipped: Array<{ row: string; reason: string }>;
  /** Rows imported after a change (overlaps marked deleted, missing frequencies). */
  changed: Array<{ row: string; reason: string }>;
}

export const kind = (read: number): KindReport => ({ read, imported: 0, skipped: [], changed: [] });
export const instant = (v: string | number | null | undefined): string | null => (v == null ? null : `${String(v).replace(' ', 'T')}Z`);
export const str = (v: string | number | null | undefined): string | null =>
  v == null || String(v).trim() === '' ? null : String(v).trim();
export const num = (v: unknown): number => Number(v);
export const flag = (v: unknown): boolean => Number(v) === 1;
