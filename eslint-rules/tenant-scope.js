/**
 * caretaker/tenant-scope: a query on a tenant table by its id must also filter by the entity.
 *
 * Flags `.where(...)` calls whose condition compares `<table>.id` (with `eq` or `inArray`) for a
 * table that has an `entity_id` column, when the same condition does not mention `entityId`
 * (`eq(rooms.entityId, ctx.entityId)`, or a scope helper whose name holds "entity"/"Scope").
 * The tenant tables are read from app/db/schema/*.ts (a `pgTable` whose columns call `entityId()`).
 * A deliberate exception (a login looking a user up across entities) carries an
 * `eslint-disable-next-line caretaker/tenant-scope -- reason` comment.
 */
import fs from "node:fs";
import path from "node:path";

let tenantTables = null;
function loadTenantTables(cwd) {
  if (tenantTables) return tenantTables;
  tenantTables = new Set();
  const dir = path.join(cwd, "app/db/schema");
  if (!fs.existsSync(dir)) return tenantTables;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const re = /export const (\w+) = pgTable\(/g;
    const starts = [...text.matchAll(re)];
    starts.forEach((match, i) => {
      const block = text.slice(match.index, starts[i + 1]?.index ?? text.length);
      if (/\bentityId\s*:\s*entityId\(\)/.test(block)) tenantTables.add(match[1]);
    });
  }
  return tenantTables;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "queries on a tenant table by id must filter by entity id" },
    messages: {
      missing: "Query on tenant table `{{table}}` by id without an entity filter: add eq({{table}}.entityId, ctx.entityId).",
    },
    schema: [],
  },
  create(context) {
    const tables = loadTenantTables(context.cwd ?? process.cwd());
    const source = context.sourceCode ?? context.getSourceCode();
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier" || callee.property.name !== "where") return;
        const [condition] = node.arguments;
        if (!condition) return;
        const text = source.getText(condition);
        if (/entityId|entity_id|Scope\(/.test(text)) return;
        for (const match of text.matchAll(/\b(?:eq|inArray)\(\s*(\w+)\.id\b/g)) {
          if (tables.has(match[1])) {
            context.report({ node: condition, messageId: "missing", data: { table: match[1] } });
            return;
          }
        }
      },
    };
  },
};
