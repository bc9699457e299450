import { defineConfig } from 'vitest/config';

// Pure unit tests: no build, no server, no database. Fast enough to run on every save.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
  },
});
