import { type RouteConfig, index, layout, prefix, route } from "@remix-run/route-config";
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
  route("logout", "routes/resources/logout.ts", { id: "logout" }),
  route("files/:id", "routes/resources/files.ts", { id: "file" }),
  route("altcha/challenge", "routes/resources/altcha-challenge.ts", { id: "altcha-challenge" }),
  route("report-issue", "routes/resources/report-issue.tsx", { id: "report-issue" }),
  route("cookie-consent", "routes/resources/cookie-consent.ts", { id: "cookie-consent" }),

  // REST API (SPEC.md section 7), JSON with a bearer token
  ...prefix("api", [
    route("authentication/login", "routes/api/authentication.login.ts", { id: "api-login" }),
    route("authentication/refresh-token", "routes/api/authentication.refresh-token.ts", { id: "api-refresh-token" }),
    route("authentication/logout", "routes/api/authentication.logout.ts", { id: "api-logout" }),
    route("entities/:id", "routes/api/entities.$id.ts", { id: "api-entity" }),
    route("entities/:id/explanatory-sticker", "routes/api/entities.$id.explanatory-sticker.ts", { id: "api-entity-sticker" }),
    route("users/password", "routes/api/users.password.ts", { id: "api-users-password" }),
    route("users/password/reset", "routes/api/users.password.reset.ts", { id: "api-users-password-reset" }),
    route("users/:id/password", "routes/api/users.$id.password.ts", { id: "api-user-password" }),
    route("facilities", "routes/api/facilities.ts", { id: "api-facilities" }),
    route("facilities/:id", "routes/api/facilities.$id.ts", { id: "api-facility" }),
    route("facilities/buildings", "routes/api/facilities.buildings.ts", { id: "api-buildings" }),
    route("facilities/buildings/:id", "routes/api/facilities.buildings.$id.ts", { id: "api-building" }),
    route("facilities/rooms", "routes/api/facilities.rooms.ts", { id: "api-rooms" }),
    route("facilities/rooms/:id", "routes/api/facilities.rooms.$id.ts", { id: "api-room" }),
    route("facilities/rooms/roomtype", "routes/api/facilities.rooms.roomtype.ts", { id: "api-room-types" }),
    route("facilities/rooms/roomtype/:id", "routes/api/facilities.rooms.roomtype.$id.ts", { id: "api-room-type" }),
    route("equipments", "routes/api/equipments.ts", { id: "api-equipment-items" }),
    route("equipments/type", "routes/api/equipments.type.ts", { id: "api-equipment-types" }),
    route("equipments/type/:id", "routes/api/equipments.type.$id.ts", { id: "api-equipment-type" }),
    route("equipments/type/:id/tags", "routes/api/equipments.type.$id.tags.ts", { id: "api-equipment-type-tags" }),
    route("equipments/type/:id/tags/:tag", "routes/api/equipments.type.$id.tags.$tag.ts", { id: "api-equipment-type-tag" }),
    route("equipments/category", "routes/api/equipments.category.ts", { id: "api-equipment-categories" }),
    route("equipments/category/:id", "routes/api/equipments.category.$id.ts", { id: "api-equipment-category" }),
    route("*", "routes/api/not-found.ts", { id: "api-not-found" }),
  ]),

  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
