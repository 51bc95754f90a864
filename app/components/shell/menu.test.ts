import { describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { helpAreaFor, helpUrl } from "~/modules/shell/help";
import { screensById, type Access } from "~/route-access";
import { activeMenuId, groupOf, MENU, menuFor, type MenuEntry } from "./menu";

/** The access rule of guard.server.ts `mayOpen`, for signed-in roles. */
const allows = (access: Access, role: number) =>
  access === "public" ||
  access === "user" ||
  (access === "manager" && (role === Role.FACILITY_MANAGER || role === Role.ADMINISTRATOR)) ||
  (access === "admin" && role === Role.ADMINISTRATOR);
const forRole = (role: number) => menuFor((id) => allows(screensById.get(id)!.access, role));
const ids = (menu: MenuEntry[]) =>
  menu.flatMap((entry) => (entry.kind === "group" ? [entry.id, ...entry.items.map((i) => i.id)] : [entry.id]));

describe("navigation menu", () => {
  it("links only to screens of route-access.ts, at their paths", () => {
    for (const entry of MENU) {
      const links = entry.kind === "group" ? entry.items : entry.kind === "link" ? [entry] : [];
      for (const link of links) {
        const screen = screensById.get(link.screen);
        expect(screen, link.id).toBeDefined();
        expect(new URL(link.to, "http://x").pathname, link.id).toBe(`/${screen!.path}`);
      }
    }
  });

  it("follows SPEC.md section 2 for managers and administrators", () => {
    const expected = [
      "administration", "users", "importData", "dashboard",
      "facilityManagement", "facilities", "buildings", "rooms", "equipments",
      "incidentManagement", "incidents", "incidentTypes",
      "printing", "qrCodes", "stickers", "report",
      "maintenance", "plannedMaintenances", "tasks", "calendar",
      "configuration", "tutorial",
    ];
    expect(ids(forRole(Role.ADMINISTRATOR))).toEqual(expected);
    expect(ids(forRole(Role.FACILITY_MANAGER))).toEqual(expected);
  });

  it("shows technicians only what they may open", () => {
    expect(ids(forRole(Role.TECHNICIAN))).toEqual([
      "incidentManagement", "incidents", "report", "maintenance", "tasks", "calendar", "tutorial",
    ]);
  });

  it("highlights the most specific item, and add/update screens under their item", () => {
    const menu = forRole(Role.ADMINISTRATOR);
    expect(activeMenuId(menu, "/facilities")).toBe("facilities");
    expect(activeMenuId(menu, "/facilities", "?tab=rooms")).toBe("rooms");
    expect(activeMenuId(menu, "/facilities", "?tab=buildings&page=2")).toBe("buildings");
    expect(activeMenuId(menu, "/update-building/12")).toBe("buildings");
    expect(activeMenuId(menu, "/configuration")).toBe("configuration");
    expect(activeMenuId(menu, "/configuration", "?tab=incident-types")).toBe("incidentTypes");
    expect(activeMenuId(menu, "/task", "?view=month")).toBe("calendar");
    expect(activeMenuId(menu, "/task/")).toBe("tasks");
    expect(activeMenuId(menu, "/incident/4")).toBe("incidents");
    expect(activeMenuId(menu, "/settings")).toBeNull();
    expect(groupOf(menu, "rooms")).toBe("facilityManagement");
    expect(groupOf(menu, "dashboard")).toBeNull();
  });
});

describe("help links", () => {
  it("points each area at its page on the help site", () => {
    expect(helpUrl("https://help.example/", helpAreaFor("/incidents"))).toBe("https://help.example/incidents");
    expect(helpAreaFor("/incident/3")).toBe("incidents");
    expect(helpAreaFor("/facilities", "?tab=rooms")).toBe("rooms");
    expect(helpAreaFor("/configuration", "?tab=incident-types")).toBe("incident-types");
    expect(helpAreaFor("/update-planned-maintenance/2")).toBe("maintenance");
    expect(helpAreaFor("/view-task/1/2024-01-01")).toBe("tasks");
    expect(helpAreaFor("/somewhere")).toBe("getting-started");
    expect(helpUrl(null, "dashboard")).toBeNull();
  });

  it("gives every screen of the route table the area it had when each was listed by hand", () => {
    // The hand-written table the rules replaced; screens it did not list had "getting-started".
    const listed = new Map<string, string>([
      ["dashboard", "dashboard"],
      ["administration", "users"],
      ["users", "users"],
      ["add-user", "users"],
      ["update-user", "users"],
      ["import-data", "import-export"],
      ["facilities", "facilities"],
      ["add-facility", "facilities"],
      ["update-facility", "facilities"],
      ["view-facility", "facilities"],
      ["add-building", "buildings"],
      ["update-building", "buildings"],
      ["view-building", "buildings"],
      ["view-room", "rooms"],
      ["add-room", "rooms"],
      ["update-room", "rooms"],
      ["room-type", "rooms"],
      ["add-room-type", "rooms"],
      ["update-room-type", "rooms"],
      ["equipments", "equipments"],
      ["add-generic-equipment", "equipments"],
      ["update-equipment-type", "equipments"],
      ["update-category", "equipments"],
      ["add-equipment-category", "equipments"],
      ["view-equipment", "equipments"],
      ["incidents", "incidents"],
      ["incident", "incidents"],
      ["add-incident-type", "incident-types"],
      ["update-incident-type", "incident-types"],
      ["printing", "printing"],
      ["maintenances", "maintenance"],
      ["add-maintenance-type", "maintenance"],
      ["update-maintenance-type", "maintenance"],
      ["add-planned-maintenance", "maintenance"],
      ["update-planned-maintenance", "maintenance"],
      ["task", "tasks"],
      ["view-task", "tasks"],
      ["configuration", "configuration"],
      ["notifications", "notifications"],
      ["notification", "notifications"],
      ["settings", "settings"],
      ["tutorial", "getting-started"],
    ]);
    const segments = new Set([...screensById.values()].map((screen) => screen.path.split("/").filter(Boolean)[0] ?? ""));
    expect(segments.size).toBeGreaterThan(30);
    for (const segment of new Set([...segments, ...listed.keys()])) {
      expect([segment, helpAreaFor(`/${segment}/1`)]).toEqual([segment, listed.get(segment) ?? "getting-started"]);
    }
  });
});
