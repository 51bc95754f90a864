/**
 * caretaker/tenant-scope: every query on a tenant table filters by the entity, read on the syntax tree.
 *
 * Tenant tables are the Drizzle tables of app/db/schema/*.ts with an `entity_id` column, read from those
 * files (parsed) when lint starts: nothing to keep by hand when a table is added.
 *
 * Checked:
 * - Query builders: `.from(T)`, `.update(T)` and `.delete(T)` on a tenant table `T` (imported from the schema, or
 *   `alias(T, ...)` of one) must be followed in the same chain by `.where(condition)` whose condition compares
 *   `T.entityId`: `eq(T.entityId, …)` or `inArray(T.entityId, …)`, inside `and(…)` (any argument; arrays
 *   spread into it, with their `push`es), `or(…)` (every argument), `a ? b : c` (both branches), a `sql`
 *   template comparing `${T.entityId}` (`=`, `in`, `= any`), a variable holding such a condition, or a
 *   function of the same file whose every `return` gives one.
 * - `sql` templates: each `from`/`update`/`delete from` of a tenant table (written by name, or `${T}`) needs a
 *   comparison of that table's entity column in the same parenthesised group: `alias.entity_id = …`,
 *   `… = alias.entity_id`, `alias.entity_id in (…)`, `${T.entityId} = …`, or a bare `entity_id = …` at the
 *   group's own level when the table has no alias. Joined tables are reached through their join condition and
 *   are not checked (in builders neither).
 * - `X.execute(arg)`: `arg` must be a `sql` template (checked as above), or a variable or same-file function
 *   giving one; anything else (`sql.raw`, a string) cannot be read.
 *
 * Where the rule cannot decide (a condition built by a helper of another file, a child table reached through a
 * parent already scoped, a job that runs for every entity), the code says why in a line comment the rule
 * reads, inside the query or on the line just above it (or above its statement):
 *   // tenant-scope: scoped by <reason>
 *   // tenant-scope: across entities, <reason>
 * Nothing else silences it: an `eslint-disable` of this rule is itself reported.
 */
import fs from "node:fs";
import path from "node:path";
import tseslint from "typescript-eslint";

const tableCache = new Map();

/** `{ byVar: Map<export name, sql name>, bySql: Map<sql name, export name> }` of the tenant tables. */
export function loadTenantTables(cwd) {
  if (tableCache.has(cwd)) return tableCache.get(cwd);
  const byVar = new Map();
  const bySql = new Map();
  const dir = path.join(cwd, "app/db/schema");
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".ts")) : [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const { ast } = tseslint.parser.parseForESLint(text, { range: true, loc: false, filePath: file });
    for (const statement of ast.body) {
      const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
      if (declaration?.type !== "VariableDeclaration") continue;
      for (const d of declaration.declarations) {
        const init = d.init;
        if (d.id.type !== "Identifier" || init?.type !== "CallExpression" || init.callee.type !== "Identifier" || init.callee.name !== "pgTable") continue;
        const [name, columns] = init.arguments;
        if (name?.type !== "Literal" || columns?.type !== "ObjectExpression") continue;
        const tenant = columns.properties.some(
          (p) =>
            p.type === "Property" &&
            ((p.key.type === "Identifier" && p.key.name === "entityId") || /["']entity_id["']/.test(text.slice(p.value.range[0], p.value.range[1]))),
        );
        if (tenant) {
          byVar.set(d.id.name, String(name.value));
          bySql.set(String(name.value), d.id.name);
        }
      }
    }
  }
  const tables = { byVar, bySql };
  tableCache.set(cwd, tables);
  return tables;
}

const ANNOTATION = /^\s*tenant-scope:\s*(scoped by|across entities,?)\s+\S.{5,}/;
const SQL_WORDS = new Set(["where", "join", "inner", "left", "right", "full", "cross", "on", "group", "order", "limit", "offset", "set", "using", "returning", "union", "except", "intersect", "for", "window", "having", "natural", "lateral", "as", "and", "or"]);

function unwrap(node) {
  let n = node;
  while (n && ["TSNonNullExpression", "TSAsExpression", "TSSatisfiesExpression", "ChainExpression", "TSTypeAssertion"].includes(n.type)) n = n.expression;
  return n;
}

/** The expressions a function gives back (its `return`s, or an arrow's body), not looking into nested functions. */
function returnsOf(fn) {
  if (fn.body.type !== "BlockStatement") return [fn.body];
  const found = [];
  const walk = (n) => {
    if (!n || typeof n.type !== "string") return;
    if (n !== fn && /Function/.test(n.type)) return;
    if (n.type === "ReturnStatement") {
      if (n.argument) found.push(n.argument);
      return;
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === "parent") continue;
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object" && typeof value.type === "string") walk(value);
    }
  };
  walk(fn.body);
  return found;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "every query on a tenant table filters by the entity (or says why it is scoped)" },
    messages: {
      missing:
        "Query on tenant table `{{table}}` without its entity condition: add eq({{table}}.entityId, ctx.entityId) to its where, or say why it is scoped in a `// tenant-scope: scoped by <reason>` comment.",
      missingSql:
        "SQL on tenant table `{{table}}` without a comparison of its entity_id ({{ref}} = …) in the same (sub)query, or a `// tenant-scope: scoped by <reason>` comment.",
      execute: "execute() of something the tenant-scope rule cannot read: pass a `sql` template, or say why it is scoped in a `// tenant-scope: scoped by <reason>` comment.",
      disable: "Do not disable caretaker/tenant-scope: say why the query is scoped in a `// tenant-scope: scoped by <reason>` comment.",
    },
    schema: [],
  },
  create(context) {
    const tables = loadTenantTables(context.cwd ?? process.cwd());
    const source = context.sourceCode ?? context.getSourceCode();
    const annotations = source.getAllComments().filter((c) => c.type === "Line" && ANNOTATION.test(c.value));

    function findVariable(node) {
      let scope = source.getScope ? source.getScope(node) : context.getScope();
      while (scope) {
        const v = scope.set.get(node.name);
        if (v) return v;
        scope = scope.upper;
      }
      return null;
    }

    function isSchemaImport(variable) {
      const def = variable?.defs[0];
      return def?.type === "ImportBinding" && /(^|\/)db\/schema(\/|$|\.)|^~\/db\/schema/.test(def.parent.source.value);
    }

    /** The tenant table an identifier names (the schema's, or an `alias()` of one), as `{ local, sql }`. */
    function tenantTable(node) {
      const n = unwrap(node);
      if (n?.type !== "Identifier") return null;
      const variable = findVariable(n);
      if (!variable) return null;
      if (isSchemaImport(variable)) {
        const imported = variable.defs[0].node.imported?.name ?? n.name;
        return tables.byVar.has(imported) ? { local: n.name, sql: tables.byVar.get(imported) } : null;
      }
      const init = unwrap(variable.defs[0]?.node?.init);
      if (variable.defs[0]?.type === "Variable" && init?.type === "CallExpression" && init.callee.type === "Identifier" && init.callee.name === "alias") {
        const base = tenantTable(init.arguments[0]);
        return base ? { local: n.name, sql: base.sql } : null;
      }
      return null;
    }

    function isEntityColumn(node, table) {
      const n = unwrap(node);
      return n?.type === "MemberExpression" && !n.computed && n.object.type === "Identifier" && n.object.name === table && n.property.name === "entityId";
    }

    /** The values a variable takes: its initialiser and every assignment. */
    function valuesOf(variable) {
      const values = [];
      const def = variable.defs[0];
      if (def?.type === "Variable" && def.node.init) values.push(def.node.init);
      for (const ref of variable.references) if (ref.isWrite() && ref.writeExpr && ref.writeExpr !== def?.node?.init) values.push(ref.writeExpr);
      return values;
    }

    /** The elements an array variable may hold: its initialiser's elements and every `push`. */
    function elementsOf(node) {
      const n = unwrap(node);
      if (n?.type === "ArrayExpression") return n.elements.filter(Boolean);
      if (n?.type !== "Identifier") return [];
      const variable = findVariable(n);
      if (!variable) return [];
      const elements = [];
      for (const value of valuesOf(variable)) if (unwrap(value).type === "ArrayExpression") elements.push(...unwrap(value).elements.filter(Boolean));
      for (const ref of variable.references) {
        const member = ref.identifier.parent;
        if (member?.type === "MemberExpression" && member.object === ref.identifier && member.property.name === "push" && member.parent.type === "CallExpression")
          elements.push(...member.parent.arguments);
      }
      return elements;
    }

    /** The function a call's callee names, when it is declared in this file. */
    function localFunction(callee) {
      if (callee.type !== "Identifier") return null;
      const variable = findVariable(callee);
      const def = variable?.defs[0];
      if (def?.type === "FunctionName") return def.node;
      const init = unwrap(def?.node?.init);
      if (def?.type === "Variable" && (init?.type === "ArrowFunctionExpression" || init?.type === "FunctionExpression")) return init;
      return null;
    }

    /** The text of a `sql` template with each interpolation as ⟦T⟧ (a table), ⟦T.col⟧ (a column) or ⟦?i⟧ (the i-th expression). */
    function templateText(node) {
      return templateParts(node).text;
    }

    /** `templateText`, with where each interpolation sits in it (`spots`). */
    function templateParts(node) {
      const { quasis, expressions } = node.quasi;
      let text = "";
      const spots = [];
      quasis.forEach((q, i) => {
        text += q.value.cooked ?? q.value.raw;
        const e = unwrap(expressions[i]);
        if (!e) return;
        spots.push({ at: text.length, expression: expressions[i] });
        if (e.type === "Identifier") text += `⟦${e.name}⟧`;
        else if (e.type === "MemberExpression" && !e.computed && e.object.type === "Identifier") text += `⟦${e.object.name}.${e.property.name}⟧`;
        else text += `⟦?${i}⟧`;
      });
      return { text, spots };
    }

    const COMPARED_AFTER = String.raw`\s*(?:=|in\s*\(|=\s*any\b)`;
    const COMPARED_BEFORE = String.raw`=\s*`;
    const escape = (s) => s.replace(/[.*+?^${}()|[\]\\⟦⟧]/g, "\\$&");
    function compares(text, ref) {
      const r = escape(ref);
      return new RegExp(`${r}${COMPARED_AFTER}`, "i").test(text) || new RegExp(`(?<![<>!])${COMPARED_BEFORE}${r}(?![\\w.])`, "i").test(text);
    }

    function isSqlTag(node) {
      return node.type === "TaggedTemplateExpression" && node.tag.type === "Identifier" && node.tag.name === "sql";
    }

    /** Whether `condition` compares `table`'s entity column on every path. */
    function scopes(condition, table, seen = new Set()) {
      const n = unwrap(condition);
      if (!n || seen.has(n)) return false;
      seen.add(n);
      switch (n.type) {
        case "CallExpression": {
          const name = n.callee.type === "Identifier" ? n.callee.name : null;
          if (name === "eq" || name === "inArray") return n.arguments.some((a) => isEntityColumn(a, table));
          if (name === "and")
            return n.arguments.some((a) => (a.type === "SpreadElement" ? elementsOf(a.argument).some((e) => scopes(e, table, seen)) : scopes(a, table, seen)));
          if (name === "or") return n.arguments.length > 0 && n.arguments.every((a) => a.type !== "SpreadElement" && scopes(a, table, seen));
          const fn = localFunction(n.callee);
          if (fn) {
            const results = returnsOf(fn);
            return results.length > 0 && results.every((r) => scopes(r, table, seen));
          }
          return false;
        }
        case "TaggedTemplateExpression":
          return isSqlTag(n) && compares(templateText(n), `⟦${table}.entityId⟧`);
        case "ConditionalExpression":
          return scopes(n.consequent, table, seen) && scopes(n.alternate, table, seen);
        case "LogicalExpression":
          return n.operator !== "&&" && scopes(n.left, table, seen) && scopes(n.right, table, seen);
        case "Identifier": {
          const variable = findVariable(n);
          if (!variable) return false;
          const values = valuesOf(variable);
          return values.length > 0 && values.every((v) => scopes(v, table, seen));
        }
        default:
          return false;
      }
    }

    /** Whether a `// tenant-scope: …` comment covers `node`: inside it, or on the line above it or its statement. */
    function annotated(node) {
      const lines = new Set([node.loc.start.line - 1]);
      let statement = node.parent;
      while (statement && !/Statement|Declaration$/.test(statement.type)) statement = statement.parent;
      if (statement) lines.add(statement.loc.start.line - 1);
      return annotations.some((c) => (c.range[0] >= node.range[0] && c.range[1] <= node.range[1]) || lines.has(c.loc.end.line));
    }

    /** The outermost call of a builder chain starting at `call`, and its `.where()` argument (or null). */
    function chainOf(call) {
      let top = call;
      let where = null;
      let dynamic = false;
      for (;;) {
        const member = top.parent;
        if (member?.type !== "MemberExpression" || member.object !== top) break;
        const next = member.parent;
        if (next?.type !== "CallExpression" || next.callee !== member) break;
        if (member.property.name === "where") where = next.arguments[0] ?? null;
        if (member.property.name === "$dynamic") dynamic = true;
        top = next;
      }
      return { top, where, dynamic };
    }

    /** The start of a builder chain (`ctx.db`, `tx`): the node before its first call. */
    function chainStart(node) {
      let n = node;
      while (n.type === "CallExpression" || n.type === "MemberExpression") n = n.type === "CallExpression" ? n.callee : n.object;
      return n;
    }

    function checkSqlTemplate(node) {
      const { text, spots } = templateParts(node);
      const re = /\b(from|update|delete\s+from)\s+(?:only\s+)?(⟦\w+⟧|"?\w+"?)(?:\s+(?:as\s+)?("?\w+"?))?/gi;
      for (const m of text.matchAll(re)) {
        const raw = m[2].replace(/"/g, "");
        let table = null;
        if (raw.startsWith("⟦")) {
          const local = raw.slice(1, -1);
          const found = tenantTable({ type: "Identifier", name: local, parent: node, range: node.range, loc: node.loc });
          if (found) table = { ...found, interpolated: true };
        } else if (tables.bySql.has(raw)) {
          table = { local: raw, sql: raw, interpolated: false };
        }
        if (!table) continue;
        const aliasWord = m[3]?.replace(/"/g, "");
        const alias = aliasWord && !SQL_WORDS.has(aliasWord.toLowerCase()) ? aliasWord : null;
        const group = groupAround(text, m.index);
        const refs = [];
        if (alias) refs.push(`${alias}.entity_id`);
        if (table.interpolated) refs.push(`⟦${table.local}.entityId⟧`, `⟦${table.local}⟧.entity_id`);
        else refs.push(`${table.sql}.entity_id`);
        if (!alias) refs.push(`"${table.sql}".entity_id`);
        const qualified = refs.some((ref) => compares(group.text, ref));
        const bare = !alias && compares(group.flat.replace(/[\w⟧"]\.entity_id/g, "·"), "entity_id");
        // A condition interpolated into the (sub)query (`where ${and(eq(T.entityId, …), …)}`), checked as a builder's.
        const condition =
          table.interpolated &&
          spots.some((spot) => spot.at >= group.start && spot.at < group.end && scopes(spot.expression, table.local));
        if (qualified || bare || condition) continue;
        if (!annotated(node)) context.report({ node, messageId: "missingSql", data: { table: table.sql, ref: alias ? `${alias}.entity_id` : `${table.sql}.entity_id` } });
        return;
      }
    }

    /** The parenthesised group around `index` (`text`), and the same with its nested groups blanked (`flat`). */
    function groupAround(text, index) {
      let depth = 0;
      let start = 0;
      for (let i = index - 1; i >= 0; i--) {
        if (text[i] === ")") depth++;
        else if (text[i] === "(") {
          if (depth === 0) {
            start = i + 1;
            break;
          }
          depth--;
        }
      }
      depth = 0;
      let end = text.length;
      for (let i = index; i < text.length; i++) {
        if (text[i] === "(") depth++;
        else if (text[i] === ")") {
          if (depth === 0) {
            end = i;
            break;
          }
          depth--;
        }
      }
      const group = text.slice(start, end);
      let flat = "";
      depth = 0;
      for (const ch of group) {
        if (ch === "(") depth++;
        if (depth === 0) flat += ch;
        if (ch === ")") depth--;
      }
      return { text: group, flat, start, end };
    }

    function isSqlValue(node, seen = new Set()) {
      const n = unwrap(node);
      if (!n || seen.has(n)) return false;
      seen.add(n);
      if (isSqlTag(n)) return true;
      if (n.type === "ConditionalExpression") return isSqlValue(n.consequent, seen) && isSqlValue(n.alternate, seen);
      if (n.type === "Identifier") {
        const variable = findVariable(n);
        const values = variable ? valuesOf(variable) : [];
        return values.length > 0 && values.every((v) => isSqlValue(v, seen));
      }
      if (n.type === "CallExpression") {
        const fn = localFunction(n.callee);
        if (fn) {
          const results = returnsOf(fn);
          return results.length > 0 && results.every((r) => isSqlValue(r, seen));
        }
      }
      return false;
    }

    return {
      Program() {
        for (const c of source.getAllComments()) {
          if (/eslint-disable/.test(c.value) && /caretaker\/tenant-scope/.test(c.value)) context.report({ loc: c.loc, messageId: "disable" });
        }
      },
      TaggedTemplateExpression(node) {
        if (isSqlTag(node)) checkSqlTemplate(node);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return;
        const method = callee.property.name;
        if (method === "execute") {
          const [arg] = node.arguments;
          if (arg && !isSqlValue(arg) && !annotated(node)) context.report({ node, messageId: "execute" });
          return;
        }
        if (method !== "from" && method !== "update" && method !== "delete") return;
        const table = tenantTable(node.arguments[0]);
        if (!table) return;
        const { top, where } = chainOf(node);
        if (where && scopes(where, table.local)) return;
        const start = chainStart(top);
        const whole = { ...top, range: [start.range[0], top.range[1]], loc: { start: start.loc.start, end: top.loc.end }, parent: top.parent };
        if (annotated(whole)) return;
        context.report({ loc: whole.loc, messageId: "missing", data: { table: table.local } });
      },
    };
  },
};
