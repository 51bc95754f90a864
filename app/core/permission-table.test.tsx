import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UsersTable } from "~/components/users/users-table";
import { type Action, PERMISSIONS, type PermissionTable, replacePermissionsForTest, type Subject } from "~/core/actor";
import { Role, UserStatus } from "~/db/enums";
import { applyGate } from "~/http/gate.server";
import common from "~/locales/en/common.json";
import shell from "~/locales/en/shell.json";
import usersLocale from "~/locales/en/users.json";
import { homeFor, mayOpen } from "~/modules/auth/guard.server";
import type { UserRow } from "~/modules/users/queries.server";
import { CreateUserFormSchema } from "~/modules/users/schema";
import { screensById } from "~/route-access";
import { renderInRouter } from "#tests/render-in-router";

/**
 * Roles are decided in the permission table alone (core/actor.ts): a test changes one role's rights in
 * the table and the screen decisions follow (the access gate on the manager and administrator screens,
 * where a user lands, the users list's links column, the links a new user needs), with no other code
 * changed. The queries that follow the table: ./permission-table.server.test.ts.
 */
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

/** The table with `holder`'s actions on `subject` replaced (in force until the test ends). */
function change(holder: keyof PermissionTable, subject: Subject, actions: readonly Action[]): void {
  restore = replacePermissionsForTest({ ...PERMISSIONS, [holder]: { ...PERMISSIONS[holder], [subject]: actions } });
}

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common, shell, users: usersLocale } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

/** What the access gate does with a signed-in person of `role` opening screen `id`: "open" or where it sends them. */
async function gate(id: string, role: Role): Promise<string> {
  const access = screensById.get(id)!.access;
  const args = { request: new Request(`http://localhost/${id}`), params: {}, context: { auth: { user: { id: 1, role }, session: null } } };
  try {
    await applyGate(access, args as unknown as Parameters<typeof applyGate>[1]);
    return "open";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("location") ?? String(thrown.status);
    throw thrown;
  }
}

describe("the administrators' screens follow the table", () => {
  const adminScreens = ["administration-webhooks", "administration-webhook", "administration-audit", "administration-service-levels", "administration-service-level-type", "administration-rates"];

  it("as it is: administrators only", async () => {
    for (const id of adminScreens) {
      expect(await gate(id, Role.ADMINISTRATOR), id).toBe("open");
      expect(await gate(id, Role.FACILITY_MANAGER), id).toBe("/forbidden");
      expect(await gate(id, Role.TECHNICIAN), id).toBe("/forbidden");
    }
  });

  it("opened to facility managers, or closed to administrators, in the table alone", async () => {
    change("facilityManager", "adminScreen", ["open"]);
    for (const id of adminScreens) expect(await gate(id, Role.FACILITY_MANAGER), id).toBe("open");
    restore!();
    change("administrator", "adminScreen", []);
    for (const id of adminScreens) expect(await gate(id, Role.ADMINISTRATOR), id).toBe("/forbidden");
  });
});

describe("the managers' screens and the landing page follow the table", () => {
  it("a manager without the manager screens is refused them, and lands on incidents without the dashboard", async () => {
    expect(await gate("dashboard", Role.FACILITY_MANAGER)).toBe("open");
    expect(homeFor(Role.FACILITY_MANAGER)).toBe("/dashboard");
    change("facilityManager", "managerScreen", []);
    expect(await gate("dashboard", Role.FACILITY_MANAGER)).toBe("/forbidden");
    expect(mayOpen(screensById.get("users")!, Role.FACILITY_MANAGER)).toBe(false);
    restore!();
    change("facilityManager", "dashboard", []);
    expect(homeFor(Role.FACILITY_MANAGER)).toBe("/incidents");
  });

  it("a technician given the manager screens opens them", async () => {
    expect(await gate("facilities", Role.TECHNICIAN)).toBe("/forbidden");
    change("technician", "managerScreen", ["open"]);
    expect(await gate("facilities", Role.TECHNICIAN)).toBe("open");
  });
});

describe("the users' links follow who reaches the whole entity", () => {
  const row = (role: Role): UserRow => ({
    id: role,
    name: "Ada",
    surname: `Role ${role}`,
    email: `ada${role}@example.test`,
    role,
    language: 0,
    status: UserStatus.ACTIVE,
    lastLoginAt: null,
    picture: null,
    linkedFacilities: [],
    linkedBuildings: [],
  });
  const linksColumn = async () => {
    const html = await renderInRouter(
      i18n,
      <UsersTable page={{ items: [row(Role.FACILITY_MANAGER), row(Role.ADMINISTRATOR)], total: 2, page: 1, size: 25 }} query={{ page: 1, size: 25, q: "", sort: "name", dir: "asc" }} filtered={false} />,
      "/users",
    );
    return [...html.matchAll(/<td class="ui-td"[^>]*data-label="Facilities and buildings"[^>]*><span[^>]*>([^<]*)</g)].map((m) => m[1]);
  };
  const managerWithoutLinks = { name: "Ada", surname: "Lovelace", email: "ada@example.test", role: Role.FACILITY_MANAGER, linkedObjects: { facilityIds: [], buildingIds: [] } };

  it("as it is: administrators show the whole entity, managers their links, and need one", async () => {
    expect(await linksColumn()).toEqual(["None", "The whole entity"]);
    expect(CreateUserFormSchema.safeParse(managerWithoutLinks).error?.issues.map((i) => i.message)).toEqual(["users:validation.linkRequired"]);
  });

  it("given to facility managers: they show the whole entity and need no links", async () => {
    change("facilityManager", "wholeEntity", ["reach"]);
    expect(await linksColumn()).toEqual(["The whole entity", "The whole entity"]);
    expect(CreateUserFormSchema.safeParse(managerWithoutLinks).success).toBe(true);
  });
});
