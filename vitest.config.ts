import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Two projects: `unit` (pure code, and the server's middlewares in tests/server) and `db` (every `*.server.test.ts`: services, queries, jobs on a
 * real database: in-memory PGlite by default, PostgreSQL when DATABASE_URL is set).
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts", "tests/server/**/*.test.ts"],
          exclude: ["app/**/*.server.test.{ts,tsx}", "node_modules/**"],
          environment: "node",
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
