import { z } from "zod";
import { apiRoutes, type Screen } from "~/route-access";
import { ErrorAnswer } from "./answers";
import { API_OPERATIONS, type Audience, type Method, type Operation, UNDOCUMENTED_ROUTES } from "./operations.server";

/**
 * The OpenAPI 3.1 document of the REST API (decision 056), built from the route table's `apiRoutes`
 * and the registry of operations: paths from the table, bodies and answers from the zod schemas the
 * routes and services use (`z.toJSONSchema`: a body as the route reads it, an answer as it is sent).
 */
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components: Record<string, unknown>;
  security: Record<string, string[]>[];
};

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  "x-audience": Audience;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

/** A route's path as OpenAPI writes it: `/api/facilities/rooms/{id}`. */
export function openApiPath(route: Pick<Screen, "path">): string {
  return `/api/${route.path.replace(/:([A-Za-z]+)/g, "{$1}")}`;
}

const AUDIENCE_TEXT: Record<Audience, string> = {
  visitor: "Anyone: no bearer token.",
  anyone: "Anyone signed in (technicians, facility managers, administrators) or an API token, within their reach.",
  managers: "Facility managers and administrators, or an API token with one of their roles.",
  administrators: "Administrators, or an API token with the administrator's role.",
};

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid input (fieldErrors name the fields)",
  401: "No valid bearer token (expired, revoked, unknown)",
  403: "The caller's role may not do this",
  404: "Not found: unknown, another entity's or out of the caller's reach",
  409: "Conflicts with the current state",
  415: "The body is not JSON",
  429: "Too many calls: wait RateLimit-Reset seconds",
};

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const rateLimitHeaders = {
  "RateLimit-Limit": { description: "Calls allowed in the window", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Calls left in the window", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window ends", schema: { type: "integer" } },
  "RateLimit-Policy": { description: "The limit and its window, e.g. 600;w=60", schema: { type: "string" } },
};

function parametersOf(path: string, operation: Operation): unknown[] {
  const inPath = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: name === "tag" || name === "fileId" ? { type: "string" } : { type: "integer", minimum: 1, maximum: 2_147_483_647 },
  }));
  const inQuery = Object.entries(operation.query ?? {}).map(([name, { schema, description }]) => ({
    name,
    in: "query",
    required: false,
    description,
    schema: withoutDialect(jsonSchema(schema, "input")),
  }));
  return [...inPath, ...inQuery];
}

function operationOf(routeId: string, path: string, operation: Operation): OpenApiOperation {
  const status = String(operation.status ?? 200);
  const headers = { ...rateLimitHeaders, ...(operation.list ? { "X-Total-Count": { description: "Rows in every page", schema: { type: "integer" } } } : {}) };
  const content = operation.file
    ? { [operation.file]: { schema: { type: "string", format: "binary" } } }
    : { "application/json": { schema: withoutDialect(jsonSchema(operation.answer, "output")) } };
  const errors = [...new Set([...operation.errors, ...(operation.audience === "visitor" ? [] : [401, 429]), ...(operation.body ? [415] : [])])].sort();
  const responses: Record<string, unknown> = { [status]: { description: "Success", headers: operation.audience === "visitor" ? undefined : headers, content } };
  for (const code of errors) responses[String(code)] = { description: STATUS_TEXT[code] ?? "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  const parameters = parametersOf(path, operation);
  return {
    operationId: `${routeId.replace(/^api-/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}_${operation.method}`,
    summary: operation.summary,
    description: `Who may call it: ${AUDIENCE_TEXT[operation.audience]}`,
    tags: [path.split("/")[2] ?? "api"],
    "x-audience": operation.audience,
    ...(operation.audience === "visitor" ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: true, content: { [operation.bodyMedia ?? "application/json"]: { schema: withoutDialect(jsonSchema(operation.body, "input")) } } } }
      : {}),
    responses,
  };
}

/** The document for the given routes (every route of `apiRoutes` but the catch-all). */
export function buildOpenApiDocument(routes: readonly Screen[]): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    if (UNDOCUMENTED_ROUTES.has(route.id)) continue;
    const path = openApiPath(route);
    for (const operation of API_OPERATIONS[route.id] ?? []) {
      (paths[path] ??= {})[operation.method] = operationOf(route.id, path, operation);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Caretaker API",
      version: "1",
      description:
        "The REST API of SPEC.md section 7 and the areas after it. Every call but the authentication and password ones carries `Authorization: Bearer <token>`: a session's access token (POST /api/authentication/login) or an API token (`ct_…`, made by an administrator at /administration/api-tokens). Errors answer `{ code, message, messageKey, fieldErrors? }`; every signed-in call counts against the caller's rate limit (RateLimit headers, 429 over it).",
    },
    paths,
    components: {
      schemas: { Error: withoutDialect(jsonSchema(ErrorAnswer, "output")) },
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A session's access token or an API token (ct_…)" } },
    },
    security: [{ bearer: [] }],
  };
}

let built: OpenApiDocument | undefined;

/** The document of the app's own route table, built once per process. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(apiRoutes);
  return built;
}
