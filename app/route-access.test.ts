import { describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { homeFor, mayOpen } from "~/modules/auth/guard.server";
import { resources, screens } from "./route-access";

/**
 * Who may open each screen, written out from SPEC.md (sections 2 and 6) and the decisions that added
 * screens after it, never read from route-access.ts: a wrong access level there fails here.
 */
const SPEC_SCREENS = {
  /**
   * Section 2, "Open to any signed-in user (including technicians)", the tutorial of its menu, an equipment
   * item's history (issue 62), the staff's scan screen and what is kept offline (issue 64).
   */
  user: ["/", "/settings", "/notifications", "/notification/{id}", "/view-room/{id}", "/view-equipment/{id}", "/view-facility/{id}", "/view-building/{id}", "/task", "/view-task/{id}/{date}", "/incidents", "/incident/{id}", "/tutorial", "/scan", "/offline"],
  /** Section 2, "Facility manager and administrator only" (section 6: managers and administrators). */
  manager: [
    "/administration", "/configuration", "/dashboard", "/users", "/add-user", "/update-user/{id}", "/import-data", "/facilities",
    "/add-facility", "/update-facility/{id}", "/add-building", "/update-building/{id}", "/add-room-type", "/update-room-type/{id}",
    "/add-room", "/update-room/{id}", "/room-type", "/equipments", "/add-generic-equipment", "/update-equipment-type/{id}",
    "/update-category/{id}", "/add-equipment-category", "/maintenances", "/add-maintenance-type", "/update-maintenance-type/{id}",
    "/add-planned-maintenance", "/update-planned-maintenance/{id}", "/printing", "/add-incident-type", "/update-incident-type/{id}",
    // The export tab of /import-data ("an import tab and an export tab"); the API tokens, which managers see (decision 056).
    "/import-data/export", "/administration/api-tokens",
  ],
  /**
   * Decision 057: webhooks and the audit history are administrators' alone; decision 064 (issue 62): the
   * service levels too; issue 62: so are the hourly rates.
   */
  admin: [
    "/administration/webhooks",
    "/administration/webhooks/{id}",
    "/administration/audit",
    "/administration/service-levels",
    // An incident type's own targets (decision 064).
    "/administration/service-levels/incident-types/{id}",
    "/administration/rates",
  ],
  /** Section 6: "Unauthenticated visitors reach only login, signup, password reset" (and sign-up's success step). */
  visitor: ["/login", "/signup", "/password/reset", "/signup/success"],
  /** Section 2, public: the forbidden page; the occupier's pages of a QR code (section 1) and sign-up's e-mail check. */
  public: ["/forbidden", "/report/{id}", "/report/status/{id}", "/signup/verify"],
} as const;

/** Section 6, who each kind of screen admits: signed out (null), technician, facility manager, administrator. */
const ADMITS: Record<keyof typeof SPEC_SCREENS, (Role | null)[]> = {
  user: [Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR],
  manager: [Role.FACILITY_MANAGER, Role.ADMINISTRATOR],
  admin: [Role.ADMINISTRATOR],
  visitor: [null],
  public: [null, Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR],
};
const WHO: (Role | null)[] = [null, Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR];

/** A route-access path written as SPEC.md writes it ("update-user/:id" is "/update-user/{id}"). */
const specPath = (path: string) => `/${path}`.replace(/:(\w+)/g, (_, name: string) => (name === "date" ? "{date}" : "{id}"));

describe("who may open each screen (SPEC.md sections 2 and 6)", () => {
  const expected = new Map<string, keyof typeof SPEC_SCREENS>(
    Object.entries(SPEC_SCREENS).flatMap(([kind, paths]) => paths.map((p) => [p, kind as keyof typeof SPEC_SCREENS] as const)),
  );

  it("lists every screen of the route table, and no other", () => {
    expect(screens.map((s) => specPath(s.path)).sort()).toEqual([...expected.keys()].sort());
  });

  for (const screen of screens) {
    it(`/${screen.path}`, () => {
      const kind = expected.get(specPath(screen.path));
      expect(kind, "a screen SPEC.md does not list").toBeDefined();
      const admitted = WHO.filter((role) => mayOpen(screen, role));
      expect(admitted).toEqual(ADMITS[kind!]);
    });
  }

  it("refuses the manager's resources (CSV, sticker PDFs, import templates) to technicians, and the user's to visitors", () => {
    const byId = new Map(resources.map((r) => [r.id, r]));
    for (const id of ["dashboard-csv", "printing-qr-codes", "printing-explanatory-stickers", "import-template"]) {
      expect(WHO.filter((role) => mayOpen(byId.get(id)!, role)), id).toEqual(ADMITS.manager);
    }
    for (const id of ["file", "report-issue", "building-options", "incident-work-order", "incident-assignee-options", "task-inspection-report"]) {
      expect(WHO.filter((role) => mayOpen(byId.get(id)!, role)), id).toEqual(ADMITS.user);
    }
  });

  it("lands technicians on incidents and everyone else on the dashboard", () => {
    expect([Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR].map(homeFor)).toEqual(["/incidents", "/dashboard", "/dashboard"]);
  });
});
