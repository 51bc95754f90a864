import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The layering of docs/ARCHITECTURE.md is enforced by lint (eslint.config.js): each forbidden import
 * direction below must fail, and the allowed ones must pass. Files are linted as if they sat at the
 * given path; they are never written.
 */
const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const use = (name: string) => `\nexport const used = ${name};\n`;

describe("lint enforces the layers", () => {
  it.each([
    ["app/lib/fixture.ts", `import { runtime } from "~/runtime.server";${use("runtime")}`, /app\/lib is a leaf/],
    ["app/lib/fixture.ts", `import { userContext } from "~/core/context.server";${use("userContext")}`, /app\/lib is a leaf/],
    ["app/core/fixture.ts", `import { getRoom } from "~/modules/rooms/queries.server";${use("getRoom")}`, /below the modules/],
    ["app/modules/rooms/fixture.ts", `import { submitForm } from "~/http/form-action.server";${use("submitForm")}`, /never import app\/http/],
    ["app/modules/rooms/fixture.ts", `import { runtime } from "~/runtime.server";${use("runtime")}`, /load context/],
    ["app/http/fixture.ts", `import { rooms } from "~/db/schema";${use("rooms")}`, /does not access the database/],
    ["app/routes/fixture.tsx", `import { rooms } from "~/db/schema";${use("rooms")}`, /Routes do not access the database/],
    ["app/routes/fixture.tsx", `import { sql } from "drizzle-orm";${use("sql")}`, /Routes do not access the database/],
    ["app/root.tsx", `import { runtime } from "~/runtime.server";${use("runtime")}`, /load context/],
    ["app/seed/seed.server.ts", `import { createRoom } from "#tests/factories";${use("createRoom")}`, /never imports test code/],
  ])("refuses in %s: %s", async (file, code, message) => {
    const found = await problems(file, code);
    expect(found.join("\n")).toMatch(message);
  });

  it.each([
    ["app/lib/fixture.ts", `import { INVALID } from "~/lib/schema-helpers";${use("INVALID")}`],
    ["app/core/fixture.ts", `import { rooms } from "~/db/schema";${use("rooms")}`],
    ["app/modules/rooms/fixture.ts", `import { withTx } from "~/core/unit-of-work.server";${use("withTx")}`],
    ["app/http/fixture.ts", `import { getRoom } from "~/modules/rooms/queries.server";${use("getRoom")}`],
    ["app/routes/fixture.tsx", `import { getRoom } from "~/modules/rooms/queries.server";${use("getRoom")}`],
    ["app/modules/rooms/fixture.server.test.ts", `import { createRoom } from "#tests/factories";${use("createRoom")}`],
  ])("allows in %s: %s", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe("lint keeps one date helper and one time zone", () => {
  it.each([
    ["app/components/rooms/fixture.tsx", `export const f = new Intl.DateTimeFormat("en", { dateStyle: "short" });\n`],
    ["app/modules/incidents/fixture.server.ts", `export const d = new Date().toLocaleDateString("en");\n`],
    ["app/routes/fixture.tsx", `import { dateTimeFormat } from "~/lib/intl";${use("dateTimeFormat")}`],
    ["app/http/fixture.ts", `export const zone = "Europe/Brussels";\n`],
  ])("refuses in %s: %s", async (file, code) => {
    expect((await problems(file, code)).join("\n")).toMatch(/no-restricted-syntax: (Write dates with app\/lib\/dates.ts|The time zone is the entity's)/);
  });

  it("allows the helper itself and the formatters it gives", async () => {
    expect(await problems("app/components/rooms/fixture.tsx", `import { useDates } from "~/lib/use-dates";\nexport const Cell = ({ at }: { at: string }) => useDates().dateTime(at);\n`)).toEqual([]);
    expect(await problems("app/lib/dates.ts", `export const f = new Intl.DateTimeFormat("en", { timeZone: "Europe/Brussels" });\n`)).toEqual([]);
  });
});

describe("lint enforces the tenant scope", () => {
  const head = `import { and, eq } from "drizzle-orm";\nimport { rooms, refreshTokens } from "~/db/schema";\ndeclare const db: any;\ndeclare const ctx: { entityId: number };\n`;

  it("flags a query on a tenant table without the entity id", async () => {
    const found = await problems("app/modules/rooms/fixture.ts", `${head}export const q = () => db.select().from(rooms).where(eq(rooms.id, 1));\n`);
    expect(found.join("\n")).toMatch(/caretaker\/tenant-scope: Query on tenant table `rooms` without its entity condition/);
  });

  it("accepts the same query filtered by the entity id", async () => {
    const found = await problems(
      "app/modules/rooms/fixture.ts",
      `${head}export const q = () => db.select().from(rooms).where(and(eq(rooms.id, 1), eq(rooms.entityId, ctx.entityId)));\n`,
    );
    expect(found.filter((m) => m.startsWith("caretaker/"))).toEqual([]);
  });
});

describe("lint keeps the framework as published (decision 019)", () => {
  const ours = async (file: string, code: string) => (await problems(file, code)).filter((m) => /^caretaker\/no-(package-internals|private-members)/.test(m));

  it.each([
    // a package without an `exports` map: its build and source folders
    ["app/entry.server.tsx", `import { createServerRoutes } from "@remix-run/react/dist/routes.js";${use("createServerRoutes")}`, /reaches into @remix-run\/react's release files/],
    ["server/fixture.ts", `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nexport const router = require("@remix-run/router/dist/router.cjs.js");\n`, /reaches into @remix-run\/router/],
    // a package with an `exports` map: anything it does not list
    ["app/db/fixture.ts", `import { PGlite } from "@electric-sql/pglite/dist/index.js";${use("PGlite")}`, /not an entry point of @electric-sql\/pglite/],
    ["server.ts", `export const load = () => import("react-dom/cjs/react-dom-server.node.production.min.js");\n`, /not an entry point of react-dom/],
    ["app/lib/fixture.ts", `export type Parser = typeof import("@electric-sql/pglite/dist/index.js");\n`, /not an entry point of @electric-sql\/pglite/],
    ["app/lib/fixture.ts", `export { parse } from "drizzle-orm/pg-core/internal-thing";\n`, /not an entry point of drizzle-orm/],
    // `_`-prefixed members of other objects
    ["app/db/fixture.ts", `declare const pglite: { _runExclusiveQuery(fn: () => Promise<void>): Promise<void> };\nexport const run = () => pglite._runExclusiveQuery(async () => undefined);\n`, /`_runExclusiveQuery` is private/],
    ["server/fixture.ts", `import Module from "node:module";\nexport const compile = (m: Module) => (m as unknown as { _compile(c: string, f: string): void })._compile("", "x.js");\n`, /`_compile` is private/],
    ["app/core/fixture.ts", `declare const res: Record<string, unknown>;\nexport const headers = res["_headers"];\n`, /`_headers` is private/],
    ["app/core/fixture.ts", `declare const loader: { _nodeModulePaths(d: string): string[] };\nconst { _nodeModulePaths } = loader;\nexport const paths = _nodeModulePaths("/");\n`, /`_nodeModulePaths` is private/],
  ])("refuses in %s: %s", async (file, code, message) => {
    expect((await ours(file, code)).join("\n")).toMatch(message);
  });

  it.each([
    // published entry points: the root, listed sub-paths, `*` patterns (with a bundler's query), Node's and the app's own modules
    ["app/db/fixture.ts", `import { PGlite } from "@electric-sql/pglite";\nimport { drizzle } from "drizzle-orm/pglite";\nimport { pgTable } from "drizzle-orm/pg-core";${use("[PGlite, drizzle, pgTable]")}`],
    ["app/components/fixture.tsx", `import { parseWithZod } from "@conform-to/zod/v4";\nimport Worker from "altcha/workers/pbkdf2?worker";\nimport { renderToString } from "react-dom/server";${use("[parseWithZod, Worker, renderToString]")}`],
    ["server/fixture.ts", `import fs from "node:fs/promises";\nimport path from "path";\nimport { logger } from "~/lib/logger.server";${use("[fs, path, logger]")}`],
    // a package without an `exports` map: a sub-path that is no build folder
    ["app/entry.client.tsx", `import { StaticRouterProvider } from "react-router-dom/server";${use("StaticRouterProvider")}`],
    // own members, the app's own globals, identifiers that merely start with an underscore
    ["app/core/fixture.ts", `export class Counter {\n  private _count = 0;\n  next() {\n    const { _count } = this;\n    this._count = _count + 1;\n    return this._count;\n  }\n}\n`],
    ["app/runtime-fixture.server.ts", `const holder = globalThis as unknown as { __caretakerRuntime?: number };\nholder.__caretakerRuntime ??= 1;\nexport const dir = __dirname;\nexport const handler = (_event: unknown) => holder.__caretakerRuntime;\n`],
    // outside app/ and server/ the rule does not apply (tests may poke at a fake's internals)
    ["tests/unit/fixture.test.ts", `declare const fake: { _calls: number };\nexport const calls = fake._calls;\n`],
  ])("allows in %s: %s", async (file, code) => {
    expect(await ours(file, code)).toEqual([]);
  });
});
