// `npm run contracts`: regenerates docs/openapi.json and docs/schema.{sqlite,postgres}.sql.
// The PostgreSQL dump needs TEST_DATABASE_URL (a fresh schema is made in it); without it that file is left as it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migratedSchema, OPENAPI_FILE, schemaFile, servedOpenApi, writeIfChanged } from './contracts.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-contracts-'));
try {
  writeIfChanged(OPENAPI_FILE, await servedOpenApi(`sqlite:${path.join(dir, 'openapi.db')}`));
  writeIfChanged(schemaFile('sqlite'), await migratedSchema(`sqlite:${path.join(dir, 'schema.db')}`));
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const schema = `sector_contracts_${process.pid}`;
    try {
      writeIfChanged(schemaFile('postgres'), await migratedSchema(`${base}${base.includes('?') ? '&' : '?'}schema=${schema}`));
    } finally {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  } else {
    process.stderr.write('TEST_DATABASE_URL is not set: docs/schema.postgres.sql was not regenerated\n');
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
