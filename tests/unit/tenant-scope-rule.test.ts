import fs from "node:fs";
import { ESLint, type Rule, RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import tenantScope from "../../eslint-rules/tenant-scope.js";

/**
 * caretaker/tenant-scope (eslint-rules/tenant-scope.js) on the syntax tree: a query on a tenant table without a
 * comparison of that table's entity column fails; the shapes the app writes pass; a `// tenant-scope:` comment
 * is the only way to say a query is scoped by other means.
 */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: "module" } });

const head = `import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { entities, rooms, users, incidents } from "~/db/schema";
declare const ctx: { entityId: number; db: any };
`;
const code = (body: string) => `${head}${body}\n`;

tester.run("tenant-scope", tenantScope as unknown as Rule.RuleModule, {
  valid: [
    // the builders, their condition written in place
    code(`export const q = () => ctx.db.select().from(rooms).where(and(eq(rooms.id, 1), eq(rooms.entityId, ctx.entityId)));`),
    code(`export const q = () => ctx.db.update(rooms).set({ name: "x" }).where(and(eq(rooms.entityId, ctx.entityId), eq(rooms.id, 1)));`),
    code(`export const q = () => ctx.db.delete(rooms).where(inArray(rooms.entityId, [ctx.entityId]));`),
    code(`export const q = () => ctx.db.select().from(rooms).where(sql\`\${rooms.entityId} = \${ctx.entityId} and \${rooms.id} = 1\`);`),
    // through a variable, an array with pushes, a function of the same file, both branches, an alias
    code(`const where = and(eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt));\nexport const q = () => ctx.db.select().from(rooms).where(where).limit(1);`),
    code(`const conds: SQL[] = [];\nconds.push(eq(rooms.entityId, ctx.entityId));\nexport const q = () => ctx.db.select().from(rooms).where(and(...conds));`),
    code(`function own(id: number) {\n  return and(eq(users.entityId, ctx.entityId), eq(users.id, id))!;\n}\nexport const q = () => ctx.db.select().from(users).where(own(1));`),
    code(`export const q = (a: boolean) => ctx.db.select().from(rooms).where(a ? eq(rooms.entityId, ctx.entityId) : and(eq(rooms.entityId, 2), isNull(rooms.archivedAt)));`),
    code(`export const q = () => ctx.db.select().from(rooms).where(or(eq(rooms.entityId, 1), eq(rooms.entityId, 2)));`),
    code(`const maker = alias(users, "maker");\nexport const q = () => ctx.db.select().from(maker).where(eq(maker.entityId, ctx.entityId));`),
    // a table without an entity column, and a local variable that merely shares a table's name
    code(`export const q = () => ctx.db.select().from(entities).where(eq(entities.id, ctx.entityId));`),
    code(`export const q = (list: number[]) => { const rooms = list; return Array.from(rooms); };`),
    // sql templates: by name with an alias, interpolated, a condition interpolated, a bare column
    code(`export const q = () => ctx.db.execute(sql\`select r.id from rooms r where r.entity_id = \${ctx.entityId} and r.id = 1\`);`),
    code(`export const q = () => ctx.db.execute(sql\`select 1 from \${rooms} where \${rooms.entityId} = \${ctx.entityId}\`);`),
    code(`const own = and(eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt));\nexport const q = () => ctx.db.execute(sql\`select count(*) from \${rooms} where \${own}\`);`),
    code(`export const q = () => ctx.db.execute(sql\`delete from rooms where entity_id = \${ctx.entityId}\`);`),
    code(`export const q = () => ctx.db.execute(sql\`update incidents i set status = 2 where i.entity_id = \${ctx.entityId}\`);`),
    code(`export const c = sql\`exists (select 1 from rooms r where r.id = \${1} and r.entity_id in (\${ctx.entityId}))\`;`),
    // execute of a variable holding a template
    code(`const query = sql\`select 1 from users u where u.entity_id = \${ctx.entityId}\`;\nexport const q = () => ctx.db.execute(query);`),
    // the comment the rule reads, above the query or its statement
    code(`// tenant-scope: across entities, sign-in by e-mail address, unique over all entities\nexport const q = () => ctx.db.select().from(users).where(eq(users.email, "a"));`),
    code(`export async function q(where: SQL) {\n  // tenant-scope: scoped by the callers' where, which compares rooms.entityId\n  const rows = await ctx.db\n    .select()\n    .from(rooms)\n    .where(where);\n  return rows;\n}`),
    code(`export const c = () =>\n  // tenant-scope: scoped by the outer room (of the entity): its own incidents\n  sql\`exists (select 1 from incidents i where i.room_id = \${rooms.id})\`;`),
  ],
  invalid: [
    // no entity condition at all, or none in the where
    { code: code(`export const q = () => ctx.db.select().from(rooms);`), errors: [{ messageId: "missing" }] },
    { code: code(`export const q = () => ctx.db.select().from(rooms).where(eq(rooms.id, 1));`), errors: [{ messageId: "missing" }] },
    { code: code(`export const q = () => ctx.db.update(rooms).set({ name: "x" }).where(eq(rooms.id, 1));`), errors: [{ messageId: "missing" }] },
    { code: code(`export const q = () => ctx.db.delete(incidents).where(eq(incidents.id, 1));`), errors: [{ messageId: "missing" }] },
    // merely mentioning entityId is not enough: another table's, a `<>`, one `or` branch only
    { code: code(`export const q = () => ctx.db.select().from(rooms).where(and(eq(rooms.id, 1), eq(users.entityId, ctx.entityId)));`), errors: [{ messageId: "missing" }] },
    { code: code(`export const q = () => ctx.db.select().from(rooms).where(sql\`\${rooms.entityId} <> \${ctx.entityId}\`);`), errors: [{ messageId: "missing" }] },
    { code: code(`export const q = () => ctx.db.select().from(rooms).where(or(eq(rooms.entityId, 1), eq(rooms.id, 2)));`), errors: [{ messageId: "missing" }] },
    { code: code(`const entityId = 1;\nexport const q = () => ctx.db.select().from(rooms).where(eq(rooms.id, entityId));`), errors: [{ messageId: "missing" }] },
    // a helper of this file that leaves the entity out, an alias
    { code: code(`function own(id: number) {\n  return eq(users.id, id);\n}\nexport const q = () => ctx.db.select().from(users).where(own(1));`), errors: [{ messageId: "missing" }] },
    { code: code(`const maker = alias(users, "maker");\nexport const q = () => ctx.db.select().from(maker).where(eq(users.entityId, ctx.entityId));`), errors: [{ messageId: "missing" }] },
    // sql templates: by name, interpolated, another alias's entity, in a subquery
    { code: code(`export const q = () => ctx.db.execute(sql\`select r.id from rooms r where r.id = \${1}\`);`), errors: [{ messageId: "missingSql" }] },
    { code: code(`export const q = () => ctx.db.execute(sql\`select 1 from \${rooms} where \${rooms.id} = 1\`);`), errors: [{ messageId: "missingSql" }] },
    { code: code(`export const c = sql\`exists (select 1 from user_linked_objects l join rooms r on r.id = 1 where l.entity_id = \${ctx.entityId}) and exists (select 1 from incidents i where r.entity_id = 1)\`;`), errors: [{ messageId: "missingSql" }] },
    { code: code(`export const q = () => ctx.db.execute(sql\`delete from incidents where id = \${1}\`);`), errors: [{ messageId: "missingSql" }] },
    // execute of something unreadable
    { code: code(`export const q = (text: string) => ctx.db.execute(sql.raw(text));`), errors: [{ messageId: "execute" }] },
    // any other comment does not count, and disabling the rule is itself reported
    { code: code(`// scoped elsewhere\nexport const q = () => ctx.db.select().from(rooms).where(eq(rooms.id, 1));`), errors: [{ messageId: "missing" }] },
    { code: code(`// tenant-scope: trust me\nexport const q = () => ctx.db.select().from(rooms).where(eq(rooms.id, 1));`), errors: [{ messageId: "missing" }] },
  ],
});

describe("the rule in the app's lint configuration", { timeout: 60_000 }, () => {
  const file = "app/modules/incidents/queries.server.ts";
  const eslint = new ESLint();
  const tenantProblems = async (text: string) => {
    const [result] = await eslint.lintText(text, { filePath: file });
    return result.messages.filter((m) => m.ruleId === "caretaker/tenant-scope").map((m) => `${m.line}: ${m.message}`);
  };
  const original = fs.readFileSync(file, "utf8");
  // The entity condition of assigneeCandidates: the first `eq(users.entityId, ctx.entityId),` line after its head.
  const start = original.indexOf("export function assigneeCandidates(");
  const at = original.indexOf("    eq(users.entityId, ctx.entityId),\n", start);

  it("reports a disabling comment instead of obeying it", async () => {
    const [result] = await eslint.lintText(
      code(`// eslint-disable-next-line caretaker/tenant-scope -- retention\nexport const q = () => ctx.db.select().from(rooms).where(eq(rooms.id, 1));`),
      { filePath: "app/modules/rooms/fixture.server.ts" },
    );
    expect(result.messages.filter((m) => m.ruleId === "caretaker/tenant-scope").map((m) => m.message)).toEqual([
      "Do not disable caretaker/tenant-scope: say why the query is scoped in a `// tenant-scope: scoped by <reason>` comment.",
    ]);
  });

  it("passes the assignee query as written", async () => {
    expect(start).toBeGreaterThan(-1);
    expect(at).toBeGreaterThan(start);
    expect(await tenantProblems(original)).toEqual([]);
  });

  it("fails once assigneeCandidates loses its entity filter", async () => {
    const mutant = original.slice(0, at) + original.slice(at + "    eq(users.entityId, ctx.entityId),\n".length);
    expect(mutant).not.toEqual(original);
    const found = await tenantProblems(mutant);
    expect(found.join("\n")).toMatch(/Query on tenant table `users` without its entity condition/);
  });
});
