import { createRequire } from "node:module";

/**
 * Remix's `<RemixServer>` rebuilds the whole route tree for every document it renders, twice over:
 * - it calls `createServerRoutes(manifest.routes, routeModules, future, isSpaMode)`, which groups the
 *   manifest's routes by parent and makes an object (and, for the root, elements) per route;
 * - React Router's `createStaticRouter` then copies that tree into "data routes"
 *   (`convertRoutesToDataRoutes`), and the route-match cache (server/route-match-cache.ts), which keeps
 *   its answers per route table, saw a new table on every render and described it again.
 * The manifest and the route modules are the build's own objects, the same for every request, so both trees
 * are too: on this app's 110 routes that was about 0.3 ms of CPU and 150 KB of garbage a page
 * (docs/benchmarks.md, twentieth session).
 *
 * `keepServerRoutes()` makes the two functions keep their answer: `createServerRoutes` per manifest, route
 * modules and mode (Remix hands it a new object of route modules per request, so the modules in it are
 * compared one by one: 110 identity checks), and `convertRoutesToDataRoutes` for those kept trees only (it
 * fills the caller's manifest from the kept copy). Both are called through their modules' CommonJS exports.
 * Nothing downstream changes a route object on the server: the routes have no `lazy` parts. A new build in
 * development brings new manifest objects and so new trees. If a Remix or React Router version moves or
 * renames a function, it is left alone and `keepServerRoutes()` says false (the test fails then).
 */
type CreateServerRoutes = (manifest: object, routeModules: object, future: unknown, isSpaMode: boolean, ...rest: unknown[]) => unknown;
type ConvertRoutes = (routes: unknown, mapRouteProperties: unknown, parentPath?: unknown, manifest?: Record<string, unknown>, ...rest: unknown[]) => unknown;

const KEPT = Symbol.for("caretaker.keptServerRoutes");
type Marked<F> = F & { [KEPT]?: true };

/** The trees `createServerRoutes` handed out: only these get their data routes kept. */
const keptTrees = new WeakSet<object>();

export function keepServerRoutes(): boolean {
  const require = createRequire(import.meta.url);
  let remixRoutes: { createServerRoutes?: Marked<CreateServerRoutes> };
  let router: { UNSAFE_convertRoutesToDataRoutes?: Marked<ConvertRoutes> };
  try {
    remixRoutes = require("@remix-run/react/dist/routes.js");
    // The router module React Router DOM's createStaticRouter calls.
    router = createRequire(require.resolve("react-router-dom/server"))("@remix-run/router");
  } catch {
    return false;
  }
  const build = remixRoutes.createServerRoutes;
  const convert = router.UNSAFE_convertRoutesToDataRoutes;
  if (typeof build !== "function" || typeof convert !== "function") return false;
  if (!build[KEPT]) remixRoutes.createServerRoutes = keepingServerRoutes(build);
  if (!convert[KEPT]) router.UNSAFE_convertRoutesToDataRoutes = keepingDataRoutes(convert);
  return true;
}

function keepingServerRoutes(build: CreateServerRoutes): Marked<CreateServerRoutes> {
  interface Kept {
    routeModules: Record<string, unknown>;
    future: unknown;
    isSpaMode: boolean;
    tree: unknown;
  }
  const kept = new WeakMap<object, Kept>();
  const keeping: Marked<CreateServerRoutes> = (manifest, routeModules, future, isSpaMode, ...rest) => {
    // Only the whole tree is kept (RemixServer's call); a subtree or a call with other values is built.
    if (rest.length > 0 || typeof manifest !== "object" || manifest === null || typeof routeModules !== "object" || routeModules === null) {
      return build(manifest, routeModules, future, isSpaMode, ...rest);
    }
    const modules = routeModules as Record<string, unknown>;
    const known = kept.get(manifest);
    if (known && known.future === future && known.isSpaMode === isSpaMode && sameModules(known.routeModules, modules)) return known.tree;
    const tree = build(manifest, routeModules, future, isSpaMode);
    if (typeof tree === "object" && tree !== null) keptTrees.add(tree);
    kept.set(manifest, { routeModules: { ...modules }, future, isSpaMode, tree });
    return tree;
  };
  keeping[KEPT] = true;
  return keeping;
}

function keepingDataRoutes(convert: ConvertRoutes): Marked<ConvertRoutes> {
  interface Kept {
    mapRouteProperties: unknown;
    dataRoutes: unknown;
    byId: [string, unknown][];
  }
  const kept = new WeakMap<object, Kept>();
  const keeping: Marked<ConvertRoutes> = (routes, mapRouteProperties, parentPath, manifest, ...rest) => {
    const whole =
      rest.length === 0 &&
      parentPath === undefined &&
      typeof routes === "object" &&
      routes !== null &&
      keptTrees.has(routes) &&
      typeof manifest === "object" &&
      manifest !== null &&
      Object.keys(manifest).length === 0;
    if (!whole) return convert(routes, mapRouteProperties, parentPath, manifest, ...rest);
    const known = kept.get(routes);
    if (known && known.mapRouteProperties === mapRouteProperties) {
      for (const [id, route] of known.byId) manifest[id] = route;
      return known.dataRoutes;
    }
    const dataRoutes = convert(routes, mapRouteProperties, undefined, manifest);
    kept.set(routes, { mapRouteProperties, dataRoutes, byId: Object.entries(manifest) });
    return dataRoutes;
  };
  keeping[KEPT] = true;
  return keeping;
}

function sameModules(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0;
  for (const id in b) {
    if (a[id] !== b[id]) return false;
    count++;
  }
  return count === Object.keys(a).length;
}
