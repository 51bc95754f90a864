import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { buildOpenApiDocument, openApiPath } from "~/http/openapi/document.server";
import { API_OPERATIONS, UNDOCUMENTED_ROUTES } from "~/http/openapi/operations.server";
import { apiRoutes } from "~/route-access";

/**
 * The OpenAPI document's request bodies against the validators the calls parse them with (issue 60
 * item 8): for every documented operation with a body, the document's required fields must be exactly the
 * fields the validator refuses when they are left out, every documented field must be refused with a
 * value of another type, and every documented enumeration value must be taken. A refinement or a
 * transform that JSON Schema cannot show (a field written as optional but refused when absent) fails here.
 */
type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; anyOf?: JsonSchema[]; const?: unknown };

const doc = buildOpenApiDocument(apiRoutes);

/**
 * Calls whose validator still refuses a field the document writes as optional, or takes one it writes as
 * required (cross-field rules and preprocessed lists); each is still to be brought to its contract.
 */
const KNOWN_MISMATCHES = new Set(["POST /api/incident-types", "PUT /api/incident-types/{id}", "POST /api/incidents/bulk", "PUT /api/incidents/{id}/priority", "PUT /api/incidents/{id}/assignee"]);

const cases = apiRoutes
  .filter((route) => !UNDOCUMENTED_ROUTES.has(route.id))
  .flatMap((route) =>
    (API_OPERATIONS[route.id] ?? [])
      .filter((operation) => operation.body)
      .map((operation) => {
        const documented = doc.paths[openApiPath(route)]?.[operation.method]?.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
        const schema = documented ? Object.values(documented.content)[0].schema : undefined;
        return { name: `${operation.method.toUpperCase()} ${openApiPath(route)}`, validator: operation.body as z.ZodType, schema };
      }),
  );

/** The top-level fields the validator names in its refusal of `body`. */
function refusedFields(validator: z.ZodType, body: unknown): Set<string> {
  const result = validator.safeParse(body);
  return new Set(result.success ? [] : result.error.issues.filter((issue) => issue.path.length > 0).map((issue) => String(issue.path[0])));
}

/** The JSON types a documented field takes ("null" included when it is nullable). */
function typesOf(field: JsonSchema): Set<string> {
  if (field.anyOf) return new Set(field.anyOf.flatMap((one) => [...typesOf(one)]));
  if (field.const !== undefined) return new Set([field.const === null ? "null" : typeof field.const]);
  if (field.enum) return new Set(field.enum.map((v) => (v === null ? "null" : typeof v === "number" ? "number" : typeof v)));
  if (field.type === undefined) return new Set(["any"]);
  const types = Array.isArray(field.type) ? field.type : [field.type];
  return new Set(types.flatMap((t) => (t === "integer" ? ["number"] : [t])));
}

/** A value of a JSON type the field does not take, or undefined when it takes every type. */
function wrongValue(field: JsonSchema): unknown {
  const types = typesOf(field);
  if (types.has("any")) return undefined;
  const samples: [string, unknown][] = [
    ["object", { unexpected: true }],
    ["array", [{ unexpected: true }]],
    ["boolean", true],
    ["number", 12.5],
    ["string", "unexpected"],
  ];
  return samples.find(([type]) => !types.has(type))?.[1];
}

describe("the OpenAPI request bodies are the calls' validators", () => {
  it("covers every call with a body", () => {
    expect(cases.length).toBeGreaterThan(40);
    for (const { name, schema } of cases) expect(schema, name).toBeDefined();
  });

  it.each(cases.filter((c) => !KNOWN_MISMATCHES.has(c.name)).map((c) => [c.name, c] as const))("%s: required fields are the ones refused when absent", (_name, { validator, schema }) => {
    if (!schema?.properties) return;
    const documented = new Set(schema.required ?? []);
    const refused = refusedFields(validator, {});
    const names = Object.keys(schema.properties);
    expect(names.filter((n) => refused.has(n)).sort()).toEqual(names.filter((n) => documented.has(n)).sort());
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: every field's type and enumeration", (_name, { validator, schema }) => {
    if (!schema?.properties) return;
    for (const [name, field] of Object.entries(schema.properties)) {
      const wrong = wrongValue(field);
      if (wrong !== undefined) expect(refusedFields(validator, { [name]: wrong }).has(name), `${name} takes ${JSON.stringify(wrong)}`).toBe(true);
      for (const value of field.enum ?? []) expect(refusedFields(validator, { [name]: value }).has(name), `${name} refuses ${JSON.stringify(value)}`).toBe(false);
    }
  });
});
