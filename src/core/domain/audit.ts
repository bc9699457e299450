// Who made a change and what changed: the audit entry every Write records (src/core/write.ts).

/** Who made a change: an API key, an operator at the command line, a signed-in member, or the roster sync. */
export type AuditActor =
  | { kind: 'key'; keyId: string; keyName: string }
  | { kind: 'cli' }
  | { kind: 'member'; cid: number; name: string }
  | { kind: 'roster' }
  /** Sector itself, by a background job (a training closed for want of confirmed interest). */
  | { kind: 'system' };

export type Fields = Record<string, unknown>;

/** One change as recorded. `before`/`after` hold only the fields that changed (null: none). */
export interface AuditEntry {
  at: number;
  actor: AuditActor;
  action: string;
  target: string;
  before: Fields | null;
  after: Fields | null;
}

/** The stored form of an actor: `key:<id>` or `cli`, and the key's name apart. */
export function actorColumns(actor: AuditActor): { actor: string; actor_name: string | null } {
  switch (actor.kind) {
    case 'key':
      return { actor: `key:${actor.keyId}`, actor_name: actor.keyName };
    case 'member':
      return { actor: `member:${actor.cid}`, actor_name: actor.name };
    case 'cli':
    case 'roster':
    case 'system':
      return { actor: actor.kind, actor_name: null };
  }
}
