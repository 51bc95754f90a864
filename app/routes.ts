import { type RouteConfig, index, layout, prefix, route } from "@remix-run/route-config";
import { apiRoutes, resources, screens } from "./route-access";

/**
 * The route table, built from the one access table in `route-access.ts` (SPEC.md section 2): the
 * public screens, the signed-in screens under the app layout, the resource routes, the REST API under
 * /api, and the not-found page.
 */
const inLayout = (access: string) => access === "user" || access === "manager" || access === "admin";
const resource = (id: string) => resources.find((r) => r.id === id)!;
const layoutRoute = resource("app");
const notFound = resource("not-found");

export default [
  ...screens.filter((s) => !inLayout(s.access)).map((s) => route(s.path, s.file, { id: s.id })),
  layout(layoutRoute.file, { id: layoutRoute.id }, [
    ...screens
      .filter((s) => inLayout(s.access))
      .map((s) => (s.path === "" ? index(s.file, { id: s.id }) : route(s.path, s.file, { id: s.id }))),
  ]),
  ...resources.filter((r) => r.path !== "" && r.path !== "*").map((r) => route(r.path, r.file, { id: r.id })),
  ...prefix("api", apiRoutes.map((r) => route(r.path, r.file, { id: r.id }))),
  route(notFound.path, notFound.file, { id: notFound.id }),
] satisfies RouteConfig;
