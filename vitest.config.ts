import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// The suite runs on SQLite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
const projects: TestProjectInlineConfiguration[] = [{ extends: true, test: { name: 'sqlite', env: { SECTOR_TEST_DB: 'sqlite' } } }];
if (process.env.TEST_DATABASE_URL) {
  // test/unit/ holds no database: it runs once, on the SQLite side.
  projects.push({ extends: true, test: { name: 'postgres', env: { SECTOR_TEST_DB: 'postgres' }, exclude: ['test/unit/**'] } });
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Integration tests start real servers and CLI processes; keep the 2-core machine unhurried.
    pool: 'forks',
    maxWorkers: 2,
    // A worker keeps its loaded modules from one test file to the next (each file still builds its
    // own application, database and processes): importing the application again for every file cost
    // about a fifth of the run. Nothing in src/ or test/support/ may keep state between files.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects,
  },
});
