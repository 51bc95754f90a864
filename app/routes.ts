import { type RouteConfig, index, layout, route } from "@remix-run/route-config";
import { screens } from "./route-access";

/**
 * The route table. Screens (SPEC.md section 2) come from `route-access.ts`; everything signed-in
 * sits under the app layout. Resource routes (REST API, files, locales) follow.
 */
const inLayout = (access: string) => access === "user" || access === "manager";

export default [
  ...screens
    .filter((s) => !inLayout(s.access))
    .map((s) => route(s.path, s.file, { id: s.id })),
  layout("routes/app-layout.tsx", { id: "app" }, [
    ...screens
      .filter((s) => inLayout(s.access))
      .map((s) => (s.path === "" ? index(s.file, { id: s.id }) : route(s.path, s.file, { id: s.id }))),
  ]),

  // Resource routes
  route("locales/:lng/:ns.json", "routes/resources/locales.ts", { id: "locales" }),
  route("set-language", "routes/resources/set-language.ts", { id: "set-language" }),

  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
