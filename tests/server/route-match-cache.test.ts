import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  installRouteMatchCache,
  loadRouterWithStaticHandlerCache,
  rememberingMatchRoutes,
  remixRouterModule,
} from "../../server/route-match-cache";

/**
 * Route matches remembered per path (decision 019): the same answers as the router's own function, for
 * every kind of path the table has, each caller with its own copy, bounded memory.
 */
const router = remixRouterModule();
const original = router.matchRoutes;
const routes = [
  { id: "root", path: "", children: [
    { id: "login", path: "login" },
    { id: "app", children: [
      { id: "home", index: true },
      { id: "incident", path: "incident/:id" },
      { id: "incidents", path: "incidents" },
      { id: "room", path: "view-room/:roomId" },
    ] },
    { id: "report", path: "report/:identifier" },
    { id: "api-room", path: "api/facilities/rooms/:id" },
    { id: "not-found", path: "*" },
  ] },
];
const paths = [
  "/", "/login", "/incidents", "/incident/42", "/incident/42/", "/INCIDENTS", "/view-room/7", "/report/AB%20C", "/report/%E2%82%AC",
  "/api/facilities/rooms/2147483648", "/nowhere/at/all", "//login", "/login?next=/x#top", "/incident/%00", "",
];

describe("remembered route matches", () => {
  const cached = rememberingMatchRoutes(original, router.parsePath);

  it("answers exactly what the router answers, first time and again", () => {
    for (const path of paths) {
      const expected = original(routes, path);
      expect(cached(routes, path), path).toEqual(expected);
      expect(cached(routes, path), path).toEqual(expected);
      expect(cached(routes, { pathname: path.split("?")[0] }), path).toEqual(original(routes, { pathname: path.split("?")[0] }));
    }
    expect(cached(routes, "/app/incidents", "/app")).toEqual(original(routes, "/app/incidents", "/app"));
    expect(cached(routes, "/incidents", "/app")).toBeNull();
  });

  it("hands each caller its own copy", () => {
    const first = cached(routes, "/incident/9")!;
    first[1].params.id = "changed";
    first.pop();
    expect(cached(routes, "/incident/9")).toEqual(original(routes, "/incident/9"));
  });

  it("keeps separate answers for separate route tables", () => {
    const other = [{ id: "only", path: "incident/:id" }];
    expect(cached(routes, "/incident/1")!.map((m) => (m.route as { id: string }).id)).toEqual(["root", "app", "incident"]);
    expect(cached(other, "/incident/1")!.map((m) => (m.route as { id: string }).id)).toEqual(["only"]);
  });

  it("answers a fresh copy of the same table with that copy's own route objects", () => {
    const copyOf = (list: typeof routes): typeof routes => structuredClone(list);
    const first = copyOf(routes);
    const second = copyOf(routes);
    const a = cached(first, "/incident/5")!;
    const b = cached(second, "/incident/5")!;
    expect(b).toEqual(original(second, "/incident/5"));
    expect(b[2].route).toBe(second[0].children[1].children![1]);
    expect(a[2].route).toBe(first[0].children[1].children![1]);
  });

  it("leaves tables it cannot describe to the router", () => {
    const noIds = [{ path: "incident/:id" }];
    const twice = [{ id: "x", path: "a" }, { id: "x", path: "b" }];
    expect(cached(noIds, "/incident/3")).toEqual(original(noIds, "/incident/3"));
    expect(cached(twice, "/b")).toEqual(original(twice, "/b"));
  });

  it("stays bounded under a flood of distinct paths", () => {
    let calls = 0;
    const counting = rememberingMatchRoutes((r, l, b) => (calls++, original(r, l, b)), router.parsePath, 100);
    for (let i = 0; i < 1000; i++) counting(routes, `/incident/${i}`);
    calls = 0;
    counting(routes, "/incident/999");
    expect(calls).toBe(0);
    counting(routes, "/incident/0");
    expect(calls).toBe(1);
  });

  it("is what the server runtime calls once installed, and installing twice wraps once", () => {
    installRouteMatchCache();
    const installed = router.matchRoutes;
    installRouteMatchCache();
    expect(router.matchRoutes).toBe(installed);
    expect(installed).not.toBe(original);
    expect(installed(routes, "/report/x")).toEqual(original(routes, "/report/x"));
    router.matchRoutes = original;
  });

  it("loads the router with its static handler asking the module's export, when it loads it first", async () => {
    const fromRuntime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
    const file = fromRuntime.resolve("@remix-run/router");
    const loaded = fromRuntime.cache[file];
    expect(loadRouterWithStaticHandlerCache()).toBe(false); // already loaded here: left alone
    delete fromRuntime.cache[file];
    try {
      expect(loadRouterWithStaticHandlerCache()).toBe(true);
      const fresh = fromRuntime("@remix-run/router") as {
        matchRoutes: (...args: unknown[]) => unknown;
        createStaticHandler(routes: object[]): { query(request: Request): Promise<unknown>; queryRoute(request: Request): Promise<unknown> };
      };
      expect(fresh).not.toBe(router);
      const paths: string[] = [];
      const inner = fresh.matchRoutes;
      fresh.matchRoutes = (...args: unknown[]) => {
        paths.push((args[1] as { pathname: string }).pathname);
        return inner(...args);
      };
      const handler = fresh.createStaticHandler([{ id: "root", path: "/", children: [{ id: "room", path: "view-room/:id", loader: () => "room" }] }]);
      await handler.query(new Request("http://x/view-room/7"));
      await handler.queryRoute(new Request("http://x/view-room/8"));
      expect(paths).toEqual(["/view-room/7", "/view-room/8"]);
    } finally {
      fromRuntime.cache[file] = loaded;
    }
  });
});
