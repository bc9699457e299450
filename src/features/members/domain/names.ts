// A member's name as the network gives it (sign-in profile, roster), stored as one line of text. Pure.

/**
 * The name on one line: a line break or tab becomes a space, NUL and the other control characters are
 * removed (PostgreSQL cannot store a NUL, and a name is one line of text), runs of spaces become one.
 */
export function oneLineName(name: string): string {
  return name
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/ {2,}/g, ' ');
}

/** A person as pages and mail show them (contract §20): "First Last (cid)"; "CID 1500003" when no name is known. */
export function personName(names: ReadonlyMap<number, string>, cid: number): string {
  const name = names.get(cid);
  return name === undefined || name === '' || name === String(cid) ? `CID ${cid}` : `${name} (${cid})`;
}
