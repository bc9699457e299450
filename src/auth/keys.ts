import type { ApiKeyRow, ApiKeyScope } from '../db/schema.js';
import type { Freshness } from '../db/freshness.js';
import { StampedCache } from '../db/freshness.js';
import { isDuplicateKeyName, type ApiKeysRepository } from '../repositories/apiKeys.js';
import type { Clock } from '../domain/time.js';
import { issueToken, parseToken, secretMatches } from './tokens.js';

/** What a request knows about the key it was made with. */
export type AuthenticatedKey = Pick<ApiKeyRow, 'id' | 'name' | 'scope' | 'variant' | 'compat'>;

export interface CreateKeyInput {
  name: string;
  scope: ApiKeyScope;
  variant?: ApiKeyRow['variant'];
  compat?: ApiKeyRow['compat'];
  expiresAt?: number | null;
}

export class KeyNameTakenError extends Error {}
const nameTaken = (name: string) => new KeyNameTakenError(`an API key named "${name}" already exists`);

/** API key lifecycle: issue, authenticate (with a freshness-checked cache), revoke, last-used. */
export class ApiKeyService {
  private readonly cache: StampedCache<ApiKeyRow | null>;
  private readonly lastUsed = new Map<string, number>();
  /** Keys created by this process; other processes' changes show in the external version. */
  private localChanges = 0;

  constructor(
    private readonly repo: ApiKeysRepository,
    freshness: Freshness,
    private readonly clock: Clock,
  ) {
    // Only key changes matter here: a booking written by this process must not empty the key cache.
    this.cache = new StampedCache(() => {
      const external = freshness.external();
      return external === null ? null : `${external}:${this.localChanges}`;
    }, 1024);
  }

  async create(input: CreateKeyInput): Promise<{ key: ApiKeyRow; token: string }> {
    // The check gives the common case a clear answer; the unique index settles a race (below).
    if (await this.repo.nameExists(input.name)) throw nameTaken(input.name);
    const issued = issueToken();
    const key = {
      id: issued.id,
      name: input.name,
      scope: input.scope,
      variant: input.variant ?? null,
      compat: input.compat ?? null,
      secret_hash: issued.secretHash,
      created_at: this.clock(),
      expires_at: input.expiresAt ?? null,
    };
    try {
      await this.repo.insert(key);
    } catch (err) {
      if (isDuplicateKeyName(err)) throw nameTaken(input.name);
      throw err;
    }
    this.localChanges++;
    return { key: { ...key, last_used_at: null, revoked_at: null }, token: issued.token };
  }

  /** Revokes a key; this process refuses it from the next request on (others via the database). */
  async revoke(id: string, at: number = this.clock()): Promise<void> {
    await this.repo.revoke(id, at);
    this.localChanges++;
  }

  /** Returns the key for a presented token, or null when it is unknown, revoked or expired. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    const row = await this.cache.get(parsed.id, async () => (await this.repo.findById(parsed.id)) ?? null);
    if (!row || !secretMatches(parsed.secret, row.secret_hash)) return null;
    const now = this.clock();
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
    this.lastUsed.set(row.id, now);
    return { id: row.id, name: row.name, scope: row.scope, variant: row.variant, compat: row.compat };
  }

  /** Writes the batched last-used times (called on a timer and at shutdown). */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = new Map(this.lastUsed);
    this.lastUsed.clear();
    try {
      await this.repo.touch(batch);
    } catch (err) {
      // Not written: keep the times for the next batch, unless a newer use replaced one since.
      for (const [id, at] of batch) if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      throw err;
    }
  }
}
