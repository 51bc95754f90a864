import { describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { helpAreaFor, helpUrl } from "~/modules/shell/help";
import { screensById, type Access } from "~/route-access";
import { activeMenuId, groupOf, MENU, menuFor, type MenuEntry } from "./menu";

/** The access rule of guard.server.ts `mayOpen`, for signed-in roles. */
const allows = (access: Access, role: number) =>
  access === "public" || access === "user" || (access === "manager" && (role === Role.FACILITY_MANAGER || role === Role.ADMINISTRATOR));
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
    expect(activeMenuId(menu, "/task", "?view=calendar")).toBe("calendar");
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
});
