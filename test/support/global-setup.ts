import type { TestProject } from 'vitest/node';
import { dropRunSchemas, dropStaleSchemas, newRunId, refuseSectorTablesInPublic } from './test-schemas.js';

// Gives the run its id (test-schemas.ts): the PostgreSQL schemas its tests make carry it, and only
// those are dropped at its end. Fails the run when TEST_DATABASE_URL is set but unreachable.

declare module 'vitest' {
  export interface ProvidedContext {
    testRunId: string;
  }
}

const runId = newRunId();

export async function setup(project: TestProject): Promise<void> {
  project.provide('testRunId', runId);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await dropStaleSchemas(url);
    await refuseSectorTablesInPublic(url);
  }
}

export async function teardown(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await dropRunSchemas(url, runId);
}
