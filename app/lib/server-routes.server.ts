import { createRequire } from "node:module";

/**
 * Remix's `<RemixServer>` rebuilds the whole route tree for every document it renders: it calls
 * `createServerRoutes(manifest.routes, routeModules, future, isSpaMode)`, which groups the manifest's
 * routes by parent and makes an object (and, for the root, elements) per route. The manifest and the route
 * modules are the build's own objects, the same for every request, so the tree is too: on this app's 110
 * routes that was about 0.2 ms of CPU and 70 KB of garbage a page (docs/benchmarks.md, twentieth session).
 *
 * `keepServerRoutes()` makes the module's `createServerRoutes` keep its answer per manifest, route modules
 * and mode (`RemixServer` calls it through the module's exports). Remix hands it a new object of route
 * modules per request, so the modules in it are compared one by one (110 identity checks). Nothing downstream changes the tree:
 * React Router's `createStaticRouter` copies the routes into its own data routes on each render. A new
 * build in development brings new manifest objects and so a new tree. If a Remix version moves or renames
 * the function, nothing is patched and `keepServerRoutes()` returns false (the test says so).
 */
type CreateServerRoutes = (manifest: object, routeModules: object, future: unknown, isSpaMode: boolean, ...rest: unknown[]) => unknown;

const KEPT = Symbol.for("caretaker.keptServerRoutes");

export function keepServerRoutes(): boolean {
  let routes: { createServerRoutes?: CreateServerRoutes & { [KEPT]?: true } };
  try {
    routes = createRequire(import.meta.url)("@remix-run/react/dist/routes.js");
  } catch {
    return false;
  }
  const build = routes.createServerRoutes;
  if (typeof build !== "function") return false;
  if (build[KEPT]) return true;

  interface Kept {
    routeModules: Record<string, unknown>;
    future: unknown;
    isSpaMode: boolean;
    tree: unknown;
  }
  const kept = new WeakMap<object, Kept>();
  const keeping: CreateServerRoutes & { [KEPT]?: true } = (manifest, routeModules, future, isSpaMode, ...rest) => {
    // Only the whole tree is kept (RemixServer's call); a subtree or a call with other values is built.
    if (rest.length > 0 || typeof manifest !== "object" || manifest === null || typeof routeModules !== "object" || routeModules === null) {
      return build(manifest, routeModules, future, isSpaMode, ...rest);
    }
    // Remix makes a new route-modules object per request, of the build's same modules: compare those.
    const modules = routeModules as Record<string, unknown>;
    const known = kept.get(manifest);
    if (known && known.future === future && known.isSpaMode === isSpaMode && sameModules(known.routeModules, modules)) return known.tree;
    const tree = build(manifest, routeModules, future, isSpaMode);
    kept.set(manifest, { routeModules: { ...modules }, future, isSpaMode, tree });
    return tree;
  };
  keeping[KEPT] = true;
  routes.createServerRoutes = keeping;
  return true;
}

function sameModules(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0;
  for (const id in b) {
    if (a[id] !== b[id]) return false;
    count++;
  }
  return count === Object.keys(a).length;
}
