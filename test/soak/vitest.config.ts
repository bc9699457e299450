import { defineConfig } from 'vitest/config';

// The soak runs on its own (`npm run test:soak`): minutes of traffic, not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.soak.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60 * 60_000,
    hookTimeout: 120_000,
  },
});
