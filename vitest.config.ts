import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Two projects: `unit` (pure code, and the server's middlewares in tests/server) and `db` (every `*.server.test.ts`: services, queries, jobs on a
 * real database: in-memory PGlite by default, PostgreSQL when DATABASE_URL is set).
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Vitest's default leaves a core free (one worker on a 2-core machine); the tests wait on PGlite's
    // single-threaded WebAssembly or on the PostgreSQL server, so a worker per core keeps both busy
    // (VITEST_WORKERS overrides; docs/decisions/016-test-suite.md).
    maxWorkers: Number(process.env.VITEST_WORKERS) || Math.max(2, os.availableParallelism()),
    // The files of a worker share one process and its imported modules (importing the app again for
    // every file was half the run); tests/vitest-setup.ts resets the process-wide state before each.
    isolate: false,
    setupFiles: ["tests/vitest-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts", "tests/server/**/*.test.ts"],
          exclude: ["app/**/*.server.test.{ts,tsx}", "node_modules/**"],
          environment: "node",
          // Some unit tests run ESLint or a bundler; on a loaded machine they pass the 5 s default without
          // being wrong. A timeout is a net for a hung test, never a speed check.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["app/**/*.server.test.{ts,tsx}", "tests/db/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ["tests/db-global-setup.ts"],
        },
      },
    ],
  },
});
