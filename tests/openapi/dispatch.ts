import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoutes } from "~/route-access";
import { apiContext, type RouteModule } from "#tests/api-helpers";

/**
 * A `fetch` for clients in the tests (openapi-fetch): it matches the request's path against the route
 * table's `apiRoutes` (in their order, as Remix ranks these static-first paths) and calls the route
 * module's loader or action with the API harness's load context, as Remix would.
 */
const modules = import.meta.glob<RouteModule>("../../app/routes/api/*.ts");

const matchers = apiRoutes.map((route) => {
  const names: string[] = [];
  const pattern = route.path === "*" ? ".*" : route.path.replace(/[.]/g, "\\.").replace(/:([A-Za-z]+)/g, (_, name: string) => (names.push(name), "([^/]+)"));
  return { route, names, re: new RegExp(`^/api/${pattern}$`) };
});

/** The route of the table that answers `path` (under /api), with its parameters. */
export function matchApiRoute(path: string) {
  // Static segments first, as Remix ranks them (users/assignees before users/:id).
  const candidates = matchers.filter((m) => m.re.test(path)).sort((a, b) => rank(b.route.path) - rank(a.route.path));
  const found = candidates[0];
  if (!found) return null;
  const values = found.re.exec(path)!.slice(1);
  return { route: found.route, params: Object.fromEntries(found.names.map((name, i) => [name, decodeURIComponent(values[i])])) };
}

function rank(path: string): number {
  if (path === "*") return -1;
  return path.split("/").reduce((score, segment) => score + (segment.startsWith(":") ? 1 : 3), 0);
}

export async function dispatchApi(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  const found = matchApiRoute(url.pathname);
  if (!found) return new Response("not found", { status: 404 });
  const load = modules[`../../app/${found.route.file}`];
  if (!load) throw new Error(`no module for ${found.route.file}`);
  const module = await load();
  const handler = (request.method === "GET" || request.method === "HEAD" ? module.loader : module.action) as ((args: LoaderFunctionArgs) => Promise<Response>) | undefined;
  if (!handler) return new Response(null, { status: 405 });
  return handler({ request, params: found.params, context: { ...apiContext(), auth: { user: null } } } as unknown as LoaderFunctionArgs);
}
