import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Generous: the suite must pass with every core busy (scripts/stress-tests.sh), and many tests
    // spawn whole Deckhand processes. Waits inside tests are for conditions, never fixed times.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
