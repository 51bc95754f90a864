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

  it("flags a query on a tenant table by id without the entity id", async () => {
    const found = await problems("app/modules/rooms/fixture.ts", `${head}export const q = () => db.select().from(rooms).where(eq(rooms.id, 1));\n`);
    expect(found.join("\n")).toMatch(/caretaker\/tenant-scope: Query on tenant table `rooms` by id/);
  });

  it("accepts the same query filtered by the entity id", async () => {
    const found = await problems(
      "app/modules/rooms/fixture.ts",
      `${head}export const q = () => db.select().from(rooms).where(and(eq(rooms.id, 1), eq(rooms.entityId, ctx.entityId)));\n`,
    );
    expect(found.filter((m) => m.startsWith("caretaker/"))).toEqual([]);
  });
});
