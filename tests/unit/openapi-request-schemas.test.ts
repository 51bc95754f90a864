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
 * A body of several kinds (a union of objects) is checked kind by kind; a rule "at least one of these
 * fields" must be documented as an `anyOf` of required fields, each of which alone satisfies it.
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
  pattern?: string;
};

const doc = buildOpenApiDocument(apiRoutes);


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

/**
 * The shapes a body takes: the object itself, or each variant of a union of objects (a body with one
 * field naming its kind, e.g. the bulk change's `change`), with that field fixed to the variant's value.
 */
function shapesOf(schema: JsonSchema | undefined): { shape: JsonSchema & { properties: Record<string, JsonSchema> }; fixed: Record<string, unknown> }[] {
  if (!schema) return [];
  if (schema.properties) return [{ shape: schema as JsonSchema & { properties: Record<string, JsonSchema> }, fixed: {} }];
  return (schema.oneOf ?? schema.anyOf ?? [])
    .filter((variant): variant is JsonSchema & { properties: Record<string, JsonSchema> } => variant.properties !== undefined)
    .map((shape) => ({ shape, fixed: Object.fromEntries(Object.entries(shape.properties).filter(([, field]) => field.const !== undefined).map(([name, field]) => [name, field.const])) }));
}

/** The "at least one of these fields" rules of a shape: an `anyOf` (of the shape or of its `allOf`) whose alternatives each require one field. */
function oneOfGroups(shape: JsonSchema): JsonSchema[][] {
  return [shape, ...(shape.allOf ?? [])]
    .map((part) => part.anyOf ?? [])
    .filter((alternatives) => alternatives.length > 0 && alternatives.every((a) => a.required?.length === 1));
}

/** A value of the alternative's field that its schema takes. */
function filledValue(field: JsonSchema | undefined): unknown {
  const type = Array.isArray(field?.type) ? field.type[0] : field?.type;
  return type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "Filled";
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

  it("finds the fields of every body (an object, or a union of objects)", () => {
    for (const { name, schema } of cases) expect(shapesOf(schema).length, name).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: required fields are the ones refused when absent", (_name, { validator, schema }) => {
    for (const { shape, fixed } of shapesOf(schema)) {
      const groups = oneOfGroups(shape);
      const inGroups = new Set(groups.flatMap((group) => group.map((a) => a.required![0])));
      const documented = new Set(shape.required ?? []);
      const refused = refusedFields(validator, fixed);
      const names = Object.keys(shape.properties).filter((n) => !(n in fixed));
      expect(names.filter((n) => refused.has(n) && !inGroups.has(n)).sort(), JSON.stringify(fixed)).toEqual(names.filter((n) => documented.has(n)).sort());
      for (const group of groups) {
        const fields = group.map((a) => a.required![0]);
        // None given: refused (on one of the group's fields); any one given alone: taken.
        expect(fields.some((n) => refused.has(n)), `one of ${fields.join(", ")} is required`).toBe(true);
        for (const alternative of group) {
          const name = alternative.required![0];
          const field = alternative.properties?.[name];
          const alone = refusedFields(validator, { ...fixed, [name]: filledValue(field) });
          expect(fields.filter((n) => alone.has(n)), `${name} alone fills ${fields.join(", ")}`).toEqual([]);
          if (field?.pattern === "\\S") {
            const blank = refusedFields(validator, { ...fixed, [name]: "   " });
            expect(fields.some((n) => blank.has(n)), `${name} of spaces only does not fill ${fields.join(", ")}`).toBe(true);
          }
        }
      }
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: every field's type and enumeration", (_name, { validator, schema }) => {
    for (const { shape, fixed } of shapesOf(schema)) {
      for (const [name, field] of Object.entries(shape.properties)) {
        if (name in fixed) continue;
        const wrong = wrongValue(field);
        if (wrong !== undefined) expect(refusedFields(validator, { ...fixed, [name]: wrong }).has(name), `${name} takes ${JSON.stringify(wrong)}`).toBe(true);
        for (const value of field.enum ?? []) expect(refusedFields(validator, { ...fixed, [name]: value }).has(name), `${name} refuses ${JSON.stringify(value)}`).toBe(false);
      }
    }
  });
});
