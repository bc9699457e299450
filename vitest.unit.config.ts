import { defineConfig } from 'vitest/config';

// Pure unit tests: no build, no server, no database. Fast enough to run on every save.
export default defineConfig({
  test: {
    include: ['test/domain/**/*.test.ts', 'test/unit/**/*.test.ts'],
  },
});
