// The contracts checked in under docs/ match what the code serves and migrates to; regenerate
// them with `npm run contracts` when a change is meant.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../../src/core/db/migrate.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { migratedSchema, OPENAPI_FILE, schemaFile, servedOpenApi } from '../../support/contracts.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../src/core/db/migrations');

describe('contracts in docs/', () => {
  it('docs/openapi.json is the document the server serves', async () => {
    const served = await servedOpenApi(freshDatabaseUrl());
    expect(served, 'run `npm run contracts` and review the diff').toBe(fs.readFileSync(OPENAPI_FILE, 'utf8'));
  });

  it(`docs/schema.${TEST_DIALECT}.sql is the schema the migrations build`, async () => {
    const migrated = await migratedSchema(freshDatabaseUrl());
    expect(migrated, 'run `npm run contracts` and review the diff').toBe(fs.readFileSync(schemaFile(TEST_DIALECT), 'utf8'));
  });

  it('every file in src/core/db/migrations/ is registered in migrate.ts, in order', () => {
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(MIGRATION_NAMES).toEqual(files);
  });
});
