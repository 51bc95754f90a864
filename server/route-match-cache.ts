import fs from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";

/**
 * Remembers route matches (decision 019, "route matching"). `matchRoutes` of `@remix-run/router` flattens,
 * ranks and compiles all 117 routes on every call (0.3-0.4 ms), and a document request calls it four times
 * (the request's routes, the loaders' routes, the partial manifest, the render): about 2 ms of a page's CPU.
 * The route table never changes while the server runs, so the answer for one table and one path is always
 * the same. The server runtime and React Router call the function through the package's CommonJS exports;
 * this replaces that export with one that remembers the last `limit` paths per route table (a flood of
 * random paths only turns the memory over) and hands each caller its own copy of the matches, made of the
 * caller's own route objects.
 * The router's static handler (every document and data request goes through its `query` or `queryRoute`)
 * calls the module's inner function instead, flattening and ranking the table again on every request (about
 * a tenth of a shell-only page's CPU). When the server loads the router module itself, before the Remix
 * adapter does, those two calls are pointed at the export (`loadRouterWithStaticHandlerCache`); a router
 * release that changes those lines is loaded unchanged (a test fails then).
 */
type Location = string | { pathname?: string };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: unknown };
type MatchRoutes = ((routes: object, location: Location, basename?: string) => Match[] | null) & { cached?: true };
interface RouterModule {
  matchRoutes: MatchRoutes;
  parsePath(path: string): { pathname?: string };
}

interface RouteLike {
  id?: unknown;
  path?: unknown;
  index?: unknown;
  caseSensitive?: unknown;
  children?: unknown;
}
/** A match without its route object: the route is found again by id in the caller's own table. */
type Shape = { id: string; params: Match["params"]; pathname: string; pathnameBase: string };
/** A table's structure (ids, paths, index and case flags, nesting) and its routes by id; null if unusable. */
type Table = { signature: string; byId: Map<string, object> } | null;

function describe(routes: unknown[]): Table {
  const byId = new Map<string, object>();
  const parts: string[] = [];
  const walk = (list: unknown[]): boolean => {
    parts.push("[");
    for (const item of list) {
      if (typeof item !== "object" || item === null) return false;
      const route = item as RouteLike;
      if (typeof route.id !== "string" || byId.has(route.id)) return false;
      byId.set(route.id, route);
      parts.push(`${route.id}\u0001${String(route.path)}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`);
      if (Array.isArray(route.children) && route.children.length > 0 && !walk(route.children)) return false;
      parts.push(",");
    }
    parts.push("]");
    return true;
  };
  return walk(routes) ? { signature: parts.join(""), byId } : null;
}

/**
 * Wraps `original` (exported for the test, which compares it with the package's own function). Remix builds
 * a new copy of the same route table for each render, so answers are kept per table structure and path,
 * as route ids, and handed back with the caller's own route objects.
 */
export function rememberingMatchRoutes(original: MatchRoutes, parsePath: RouterModule["parsePath"], limit = 2000): MatchRoutes {
  const tables = new WeakMap<object, Table>();
  const answers = new Map<string, Map<string, Shape[] | null>>();
  const cached: MatchRoutes = (routes, location, basename = "/") => {
    if (!Array.isArray(routes) || typeof basename !== "string") return original(routes, location, basename);
    let table = tables.get(routes);
    if (table === undefined) tables.set(routes, (table = describe(routes)));
    if (table === null) return original(routes, location, basename);
    const pathname = (typeof location === "string" ? parsePath(location).pathname : location?.pathname) ?? "/";
    let byPath = answers.get(table.signature);
    if (!byPath) {
      if (answers.size >= 16) answers.clear();
      answers.set(table.signature, (byPath = new Map()));
    }
    const key = `${basename}\u0000${pathname}`;
    let shapes = byPath.get(key);
    if (shapes === undefined) {
      const matches = original(routes, pathname, basename);
      shapes = matches && matches.map((m) => ({ id: (m.route as RouteLike).id as string, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }));
      if (byPath.size >= limit) byPath.clear();
      byPath.set(key, shapes);
      return matches;
    }
    const byId = table.byId;
    return shapes && shapes.map((s) => ({ params: { ...s.params }, pathname: s.pathname, pathnameBase: s.pathnameBase, route: byId.get(s.id) }));
  };
  cached.cached = true;
  return cached;
}

/** The router module the Remix server runtime loads (the same one React Router loads). */
export function remixRouterModule(): RouterModule {
  const fromHere = createRequire(import.meta.url);
  return createRequire(fromHere.resolve("@remix-run/server-runtime"))("@remix-run/router") as RouterModule;
}

/** The two calls of the static handler (`query`, `queryRoute`) to the inner `matchRoutes`. */
export const STATIC_HANDLER_MATCH = "let matches = matchRoutes(dataRoutes, location, basename);";
const STATIC_HANDLER_MATCH_EXPORTED = "let matches = exports.matchRoutes(dataRoutes, location, basename);";

/**
 * Loads `@remix-run/router` (the copy the server runtime uses) with its static handler calling the module's
 * exported `matchRoutes`, so that the remembering one installed below serves it too. Returns false, and
 * changes nothing, when the module is already loaded or its source does not hold the two calls.
 */
export function loadRouterWithStaticHandlerCache(): boolean {
  const fromRuntime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
  const file = fromRuntime.resolve("@remix-run/router");
  if (fromRuntime.cache[file]) return false;
  const source = fs.readFileSync(file, "utf8");
  if (source.split(STATIC_HANDLER_MATCH).length !== 3) return false;
  type CompilingModule = Module & { _compile(code: string, filename: string): void; paths: string[]; loaded: boolean };
  const loader = Module as unknown as typeof Module & { _nodeModulePaths(dir: string): string[] };
  const module = new Module(file) as CompilingModule;
  module.filename = file;
  module.paths = loader._nodeModulePaths(path.dirname(file));
  module._compile(source.replaceAll(STATIC_HANDLER_MATCH, STATIC_HANDLER_MATCH_EXPORTED), file);
  module.loaded = true;
  fromRuntime.cache[file] = module;
  return true;
}

export function installRouteMatchCache(): void {
  loadRouterWithStaticHandlerCache();
  const router = remixRouterModule();
  if (router.matchRoutes.cached) return;
  router.matchRoutes = rememberingMatchRoutes(router.matchRoutes, router.parsePath);
}
