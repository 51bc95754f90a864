import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { keepServerRoutes } from "./server-routes.server";

const routes = createRequire(import.meta.url)("@remix-run/react/dist/routes.js") as {
  createServerRoutes: (manifest: object, routeModules: object, future: object, isSpaMode: boolean) => { id: string; children?: { id: string }[] }[];
};

const router = createRequire(createRequire(import.meta.url).resolve("react-router-dom/server"))("@remix-run/router") as {
  UNSAFE_convertRoutesToDataRoutes: (routes: unknown, mapRouteProperties: unknown, parentPath?: unknown, manifest?: Record<string, unknown>) => { id: string }[];
};

const manifest = {
  root: { id: "root", path: "", hasLoader: true },
  "routes/a": { id: "routes/a", parentId: "root", path: "a", hasLoader: true },
  "routes/b": { id: "routes/b", parentId: "root", path: "b", hasLoader: false },
};
const Page = () => null;
const routeModules = { root: { default: Page }, "routes/a": { default: Page }, "routes/b": { default: Page } };

describe("keepServerRoutes", () => {
  it("patches this Remix version's createServerRoutes (a Remix upgrade that moves it fails here)", () => {
    expect(keepServerRoutes()).toBe(true);
    expect(keepServerRoutes()).toBe(true);
  });

  it("builds the route tree once per manifest, route modules, future flags and mode", () => {
    keepServerRoutes();
    const future = { v3_singleFetch: true };
    const first = routes.createServerRoutes(manifest, routeModules, future, false);
    expect(first.map((r) => r.id)).toEqual(["root"]);
    expect(first[0].children?.map((r) => r.id)).toEqual(["routes/a", "routes/b"]);
    expect(routes.createServerRoutes(manifest, routeModules, future, false)).toBe(first);
    // Remix passes a new object of the same modules on every request: still the same tree.
    expect(routes.createServerRoutes(manifest, { ...routeModules }, future, false)).toBe(first);
    // Another build (new manifest, another module), other flags or the other mode get their own tree.
    expect(routes.createServerRoutes({ ...manifest }, routeModules, future, false)).not.toBe(first);
    expect(routes.createServerRoutes(manifest, routeModules, future, false)).toBe(first);
    const changed = routes.createServerRoutes(manifest, { ...routeModules, "routes/b": { default: () => null } }, future, false);
    expect(changed).not.toBe(first);
    expect(routes.createServerRoutes(manifest, { ...routeModules, "routes/b": { default: () => null } }, future, false)).not.toBe(changed);
    expect(routes.createServerRoutes(manifest, routeModules, { v3_singleFetch: true }, false)).not.toBe(first);
    expect(routes.createServerRoutes(manifest, routeModules, future, true)).not.toBe(first);
  });

  it("keeps the data routes of a kept tree and fills each caller's manifest; other route lists are converted", () => {
    keepServerRoutes();
    const tree = routes.createServerRoutes(manifest, routeModules, { flags: 1 }, false);
    const mapRouteProperties = (route: unknown) => ({ hasErrorBoundary: Boolean((route as { ErrorBoundary?: unknown }).ErrorBoundary) });
    const first: Record<string, unknown> = {};
    const dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, first);
    expect(Object.keys(first).sort()).toEqual(["root", "routes/a", "routes/b"]);
    const second: Record<string, unknown> = {};
    expect(router.UNSAFE_convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, second)).toBe(dataRoutes);
    expect(second).toEqual(first);
    expect(second.root).toBe(dataRoutes[0]);
    // Another mapping, or a list that is not a kept tree, is converted as the router does.
    expect(router.UNSAFE_convertRoutesToDataRoutes(tree, () => ({}), undefined, {})).not.toBe(dataRoutes);
    const plain = [{ id: "x", path: "x" }];
    const once = router.UNSAFE_convertRoutesToDataRoutes(plain, mapRouteProperties, undefined, {});
    expect(router.UNSAFE_convertRoutesToDataRoutes(plain, mapRouteProperties, undefined, {})).not.toBe(once);
  });
});
