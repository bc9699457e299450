import type { ApiKeyRow, ApiKeyScope } from '../../core/db/schema.js';
import { isDuplicateKeyName } from './api-keys.repository.js';
import { apiKeyTarget, type AuditActor } from '../audit/domain/index.js';
import { isoMicros } from '../../core/domain/time.js';
import { issueToken, parseToken, secretMatches } from './tokens.js';
import type { Deps } from '../../app/deps.js';

/** What a request knows about the key it was made with. */
export type AuthenticatedKey = Pick<ApiKeyRow, 'id' | 'name' | 'scope' | 'variant' | 'compat'>;

export interface CreateKeyInput {
  name: string;
  scope: ApiKeyScope;
  variant?: ApiKeyRow['variant'];
  compat?: ApiKeyRow['compat'];
  expiresAt?: number | null;
}

/** What memory tells of a token: refused (cannot be right), known (a key's id with its secret: ask the database), unseen. */
export type TokenPrecheck = 'refused' | 'known' | 'unseen';

/** What never changes about a key once it exists: its secret, and being revoked once it is. */
interface KnownKey {
  secretHash: string;
  revoked: boolean;
}

// Only ids of real keys get in. Ids that name no key are not remembered: a Control Center token's id
// comes from the token itself, so an id refused now names a key once the token is moved
// (import:controlcenter, another process); the rate limit keeps made-up ones off the database.
const KNOWN_KEYS = 10_000;

export class KeyNameTakenError extends Error {}
const nameTaken = (name: string) => new KeyNameTakenError(`an API key named "${name}" already exists`);

/** API key lifecycle: issue, authenticate, revoke, last-used. */
export class ApiKeyService {
  private readonly lastUsed = new Map<string, number>();
  /** Keys this process has seen in the database, by id. */
  private readonly known = new Map<string, KnownKey>();

  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  /** Creates a key; the audit log records it (by `actor`, the command line unless said) in the same transaction. */
  async create(input: CreateKeyInput, actor: AuditActor = { kind: 'cli' }): Promise<{ key: ApiKeyRow; token: string }> {
    // The check gives the common case a clear result; the unique index settles a race (below).
    if (await this.deps.repos.apiKeys.nameExists(input.name)) throw nameTaken(input.name);
    const issued = issueToken();
    const key = {
      id: issued.id,
      name: input.name,
      scope: input.scope,
      variant: input.variant ?? null,
      compat: input.compat ?? null,
      secret_hash: issued.secretHash,
      created_at: this.deps.clock(),
      expires_at: input.expiresAt ?? null,
    };
    try {
      const after = {
        name: key.name,
        scope: key.scope,
        variant: key.variant,
        compat: key.compat,
        expires_at: key.expires_at === null ? null : isoMicros(key.expires_at),
      };
      await this.deps.writer.write(async (w) => {
        await w.repos.apiKeys.insert(key);
        await w.audit(actor, [{ action: 'apikey.created', target: apiKeyTarget(key.id), before: null, after }]);
      });
    } catch (err) {
      if (isDuplicateKeyName(err)) throw nameTaken(input.name);
      throw err;
    }
    this.remember(key.id, { secretHash: key.secret_hash, revoked: false });
    return { key: { ...key, last_used_at: null, revoked_at: null }, token: issued.token };
  }

  /**
   * Revokes a key; this process refuses it from the next request on (others via the database).
   * False when it was revoked already (decided by the write itself: of two at once, one revokes it).
   */
  async revoke(id: string, at: number = this.deps.clock(), actor: AuditActor = { kind: 'cli' }): Promise<boolean> {
    const revoked = await this.deps.writer.write(async (w) => {
      if (!(await w.repos.apiKeys.revoke(id, at))) return false;
      await w.audit(actor, [
        { action: 'apikey.revoked', target: apiKeyTarget(id), before: { revoked_at: null }, after: { revoked_at: isoMicros(at) } },
      ]);
      return true;
    });
    const known = this.known.get(id);
    if (known) known.revoked = true;
    return revoked;
  }

  /** Every key, oldest first (never their secrets: only hashes are stored). */
  list(): Promise<ApiKeyRow[]> {
    return this.deps.repos.apiKeys.list();
  }

  /** The key whose id is ref and the key whose name is ref: none, one of them, or two different keys. */
  findByIdAndByName(ref: string): Promise<{ byId?: ApiKeyRow; byName?: ApiKeyRow }> {
    return this.deps.repos.apiKeys.findByIdAndByName(ref);
  }

  /**
   * Of the given key ids, those still valid now (neither revoked nor expired), read from the
   * database in one query: open event streams are checked with it at each heartbeat.
   */
  async stillValid(ids: string[]): Promise<Set<string>> {
    return new Set(await this.deps.repos.apiKeys.validIds(ids, this.deps.clock()));
  }

  /** See TokenPrecheck. Never asks the database. */
  precheck(token: string): TokenPrecheck {
    const parsed = parseToken(token);
    if (!parsed) return 'refused';
    const known = this.known.get(parsed.id);
    if (known) return known.revoked || !secretMatches(parsed.secret, known.secretHash) ? 'refused' : 'known';
    return 'unseen';
  }

  /** The key of a token, or null. A possibly valid key is always read from the database, so a revocation holds on every instance. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    if (this.precheck(token) === 'refused') return null;
    const parsed = parseToken(token)!;
    const row = await this.deps.repos.apiKeys.findById(parsed.id);
    if (!row) return null;
    this.remember(row.id, { secretHash: row.secret_hash, revoked: row.revoked_at !== null });
    if (!secretMatches(parsed.secret, row.secret_hash)) return null;
    const now = this.deps.clock();
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
    this.lastUsed.set(row.id, now);
    return { id: row.id, name: row.name, scope: row.scope, variant: row.variant, compat: row.compat };
  }

  private remember(id: string, key: KnownKey): void {
    if (!this.known.has(id) && this.known.size >= KNOWN_KEYS) this.known.delete(this.known.keys().next().value!);
    this.known.set(id, key);
  }

  /** Writes the batched last-used times (called on a timer and at shutdown). */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = new Map(this.lastUsed);
    this.lastUsed.clear();
    try {
      await this.deps.writer.write((w) => w.repos.apiKeys.touch(batch));
    } catch (err) {
      // Not written: keep the times for the next batch, unless a newer use replaced one since.
      for (const [id, at] of batch) if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      throw err;
    }
  }
}
