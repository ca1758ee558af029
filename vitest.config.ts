import { defineConfig } from 'vitest/config';

const integration = (name: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/integration/**/*.test.ts'],
    // What only a PostgreSQL server can do (several processes on one database): not on PGlite.
    exclude: name === 'pglite' ? ['tests/integration/**/*.postgres.test.ts'] : [],
    globalSetup: ['tests/integration/global-setup.ts'],
    env: { TEST_DB: name },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // Integration files wait on their databases more than they compute: two at a time on two cores
    // (Vitest's default there is one). Each worker slot gets its own PGlite (global-setup.ts).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['domain/**/*.test.ts', 'server/**/*.test.ts', 'app/**/*.test.ts', 'tests/unit/**/*.test.ts'],
        },
      },
      integration('pglite'),
      integration('postgres'),
      // Production instances behind a load balancer (`npm run test:cluster`): their own stage of npm test.
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
