// SQL statements behind one GET /api/users with every relation, counted in this process through
// the database's query hook, on the benchmark database, with nothing cached yet.
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connection.js';
import { createServices } from '../../src/services/index.js';

export type UsersCount =
  | {
      ok: true;
      /** Statements of the cold request. */
      statements: number;
      /** Statements of the same request right after (served from the cache). */
      warmStatements: number;
      coldMs: number;
      warmMs: number;
      bytes: number;
      users: number;
    }
  | { ok: false; status: number; message: string };

export async function countUsersStatements({
  databaseUrl,
  env,
  path,
  token,
}: {
  databaseUrl: string;
  env: Record<string, string>;
  path: string;
  token: string;
}): Promise<UsersCount> {
  let statements = 0;
  // Statements that read data; the BEGIN and COMMIT around the build's snapshot are not counted.
  const db = openDatabase(databaseUrl, {
    onQuery: (e) => {
      if (!/^\s*(begin|commit|start transaction)\b/i.test(e.query.sql)) statements++;
    },
  });
  const app = await buildApp(createServices(loadConfig({ ...env, DATABASE_URL: databaseUrl }), db), { logger: false });
  try {
    await app.ready();
    const request = () => app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
    statements = 0;
    let started = performance.now();
    const cold = await request();
    const coldMs = performance.now() - started;
    const coldStatements = statements;
    if (cold.statusCode !== 200) return { ok: false, status: cold.statusCode, message: cold.body.slice(0, 200) };
    statements = 0;
    started = performance.now();
    await request();
    return {
      ok: true,
      statements: coldStatements,
      warmStatements: statements,
      coldMs,
      warmMs: performance.now() - started,
      bytes: cold.rawPayload.length,
      users: (JSON.parse(cold.body) as unknown[]).length,
    };
  } finally {
    await app.close();
    await db.close();
  }
}
