// Writing API keys' last-used times: one statement for the whole batch, and (SQLite) while
// another process holds the write lock the server keeps responding instead of blocking on it.
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DIALECT } from '../../support/context.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('recording API key use', () => {
  it('writes the times of a whole batch of keys in one statement, never moving one back', async () => {
    const ctx = await createTestContext({ now: T0 });
    try {
      const tokens = [await ctx.key('read', { name: 'a' }), await ctx.key('read', { name: 'b' }), await ctx.key('edit', { name: 'c' })];
      for (const token of tokens) await ctx.request({ method: 'GET', url: '/api/positions', token });
      // Key c was used later by another process already: its time stays.
      await ctx.services.db.kysely
        .updateTable('api_keys')
        .set({ last_used_at: T0 + 60_000 })
        .where('name', '=', 'c')
        .execute();
      ctx.resetQueries();
      await ctx.services.keys.flushLastUsed();
      expect(ctx.statements().filter((s) => /^\s*(with\b[\s\S]*)?update\b/i.test(s) && s.includes('api_keys'))).toHaveLength(1);
      const rows = await ctx.services.db.kysely.selectFrom('api_keys').select(['name', 'last_used_at']).orderBy('name').execute();
      expect(rows).toEqual([
        { name: 'a', last_used_at: T0 },
        { name: 'b', last_used_at: T0 },
        { name: 'c', last_used_at: T0 + 60_000 },
      ]);
    } finally {
      await ctx.close();
    }
  });

  it.runIf(TEST_DIALECT === 'sqlite')(
    'keeps responding to requests while another process holds the write lock, and writes the times after',
    async () => {
      const ctx = await createTestContext({ now: T0 });
      const other = new SQLite(ctx.databaseUrl.slice('sqlite:'.length));
      try {
        const token = await ctx.key('read', { name: 'busy' });
        await ctx.request({ method: 'GET', url: '/api/positions', token });

        other.exec('BEGIN IMMEDIATE');
        const order: string[] = [];
        const flushed = ctx.services.keys.flushLastUsed().then(
          () => order.push('flushed'),
          (err: unknown) => order.push(`failed: ${(err as Error).message}`),
        );
        // Every request gets a response while the batch waits for the lock.
        ctx.setNow(T0 + 1000);
        for (let i = 0; i < 5; i++) {
          const res = await ctx.request({ method: 'GET', url: '/api/positions', token });
          order.push(`request ${res.statusCode}`);
        }
        expect(order).toEqual(Array(5).fill('request 200'));
        other.exec('COMMIT');
        await flushed;
        expect(order).toEqual([...Array(5).fill('request 200'), 'flushed']);
        const row = await ctx.services.db.kysely
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('name', '=', 'busy')
          .executeTakeFirstOrThrow();
        expect(row.last_used_at).toBe(T0);
        // The uses meanwhile are the next batch.
        await ctx.services.keys.flushLastUsed();
        const later = await ctx.services.db.kysely
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('name', '=', 'busy')
          .executeTakeFirstOrThrow();
        expect(later.last_used_at).toBe(T0 + 1000);
      } finally {
        if (other.inTransaction) other.exec('ROLLBACK');
        other.close();
        await ctx.close();
      }
    },
  );
});
