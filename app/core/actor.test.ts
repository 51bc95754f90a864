import { describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { ForbiddenError } from "~/lib/errors";
import { ACTIONS, type Action, type Actor, assertCan, can, personActor, personWhoCan, reachesWholeEntity, roleCan, roleIsAdministrators, roleNeedsLinks, roleReachesWholeEntity, rolesThat, SUBJECTS, type Subject, systemActor, tokenActor } from "./actor";

const technician = personActor({ id: 1, role: Role.TECHNICIAN });
const manager = personActor({ id: 2, role: Role.FACILITY_MANAGER });
const administrator = personActor({ id: 3, role: Role.ADMINISTRATOR });
const system = systemActor("test-job");
const every = SUBJECTS.flatMap((subject) => ACTIONS.map((action) => [action, subject] as const));

/**
 * What each role may do, written out from SPEC.md (never read from the table under test), as
 * "action subject":
 * - section 6: technicians reach home, settings, notifications, room views, tasks, incidents and their
 *   details (read places, handle, comment and report incidents, read and do tasks, their own account and
 *   notifications, a bug report: section 2's dialogs);
 * - section 6: "facility-manager capabilities are granted to managers and administrators": the manager
 *   screens of section 2 (settings of the entity, places, catalogue, incident types, users, dashboard,
 *   maintenance, import and export, printing), and the API tokens to see (decision 056);
 * - section 5: only an administrator gives the administrator role; section 6: technicians and managers
 *   are linked to facilities and buildings, administrators reach the whole entity; decision 057: webhooks,
 *   the audit history and their pages, the bug reports and making API tokens are administrators' alone;
 *   decision 064 (issue 62): so are the service levels (working hours, closed days, targets);
 * - issue 62: a technician records their own time and material on what they handle; managers and
 *   administrators record for others and correct anyone's, within reach; hourly rates and the currency
 *   are administrators' only.
 */
const TECHNICIAN = [
  "read entity",
  "read place",
  "read catalogue",
  "read incidentType",
  "read incident",
  "handle incident",
  "comment incident",
  "report incident",
  "read account",
  "update account",
  "read notification",
  "update notification",
  "read task",
  "update task",
  "create time",
  "create bugReport",
];
const FACILITY_MANAGER = [
  ...TECHNICIAN,
  "update entity",
  "manage place",
  "manage catalogue",
  "manage incidentType",
  "read user",
  "manage user",
  "read dashboard",
  "read maintenance",
  "manage maintenance",
  "manage task",
  "manage time",
  "import data",
  "export data",
  "print printing",
  "open managerScreen",
  "read apiToken",
];
const ADMINISTRATOR = [
  ...FACILITY_MANAGER,
  "manage administrator",
  "read bugReport",
  "read webhook",
  "manage webhook",
  "read audit",
  "read serviceLevel",
  "manage serviceLevel",
  "read rate",
  "manage rate",
  "open adminScreen",
  "manage apiToken",
  "reach wholeEntity",
];
/** Background work for one entity (decision 048): a job's work, nothing of a person's nor of people. */
const SYSTEM = [
  "read entity",
  "read place",
  "manage place",
  "read catalogue",
  "manage catalogue",
  "read incidentType",
  "manage incidentType",
  "read incident",
  "handle incident",
  "report incident",
  "deliver notification",
  "read dashboard",
  "read maintenance",
  "manage maintenance",
  "read task",
  "update task",
  "manage task",
  "import data",
  "export data",
  "print printing",
  "reach wholeEntity",
];

const allowed = (actor: Actor) => every.filter(([action, subject]) => can(actor, action, subject)).map(([action, subject]) => `${action} ${subject}`);
const sorted = (list: string[]) => [...list].sort();

describe("the permission table", () => {
  it("gives each role exactly what SPEC.md section 6 says", () => {
    expect(sorted(allowed(technician))).toEqual(sorted(TECHNICIAN));
    expect(sorted(allowed(manager))).toEqual(sorted(FACILITY_MANAGER));
    expect(sorted(allowed(administrator))).toEqual(sorted(ADMINISTRATOR));
    expect(reachesWholeEntity(technician)).toBe(false);
    expect(reachesWholeEntity(manager)).toBe(false);
    expect(reachesWholeEntity(administrator)).toBe(true);
  });

  it("lets the system do a job's work for its entity, but nothing of a person's or of people", () => {
    expect(sorted(allowed(system))).toEqual(sorted(SYSTEM));
    expect(reachesWholeEntity(system)).toBe(true);
  });

  it("never lets a token do what its person cannot, and only what its scopes grant", () => {
    const everything = SUBJECTS.map((s) => `${s}:*` as const);
    const technicianToken = tokenActor({ id: 1, role: Role.TECHNICIAN }, 9, everything);
    expect(sorted(allowed(technicianToken))).toEqual(sorted(TECHNICIAN));
    const readOnly = tokenActor({ id: 2, role: Role.FACILITY_MANAGER }, 10, ["incident:read", "place:read"]);
    expect(sorted(allowed(readOnly))).toEqual(["read incident", "read place"]);
    expect(() => assertCan(technicianToken, "manage", "place")).toThrow(ForbiddenError);
    // A token acts for its person: their id, so their reach.
    expect(personWhoCan(technicianToken, "comment", "incident").id).toBe(1);
    // A token limited to some facilities never reaches the whole entity, whatever its role.
    expect(reachesWholeEntity(tokenActor({ id: 3, role: Role.ADMINISTRATOR }, 11, everything, { facilityIds: [4] }))).toBe(false);
  });

  it("refuses nobody everything, and a role it does not know", () => {
    for (const [action, subject] of every) {
      expect(can(null, action, subject)).toBe(false);
      expect(can({ kind: "person", id: 4, role: 99 } as unknown as Actor, action, subject)).toBe(false);
      expect(roleCan(99, action, subject)).toBe(false);
    }
    expect(() => personWhoCan(system, "comment", "incident")).toThrow(ForbiddenError);
  });
});

describe("the questions about roles", () => {
  it("answer from the same table as can()", () => {
    const roles = [Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR];
    for (const [action, subject] of every) {
      for (const role of roles) expect(roleCan(role, action, subject), `${role} ${action} ${subject}`).toBe(can(personActor({ id: 1, role }), action, subject));
    }
  });

  it("name the roles SPEC.md gives each right", () => {
    const ask = (action: Action, subject: Subject) => [...rolesThat(action, subject)].sort();
    // Section 6: administrators reach the whole entity; technicians and managers are linked.
    expect(ask("reach", "wholeEntity")).toEqual([Role.ADMINISTRATOR]);
    expect(roleReachesWholeEntity(Role.ADMINISTRATOR)).toBe(true);
    expect([Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR].map(roleNeedsLinks)).toEqual([true, true, false]);
    expect(roleNeedsLinks(99)).toBe(false);
    // Everyone staff may be assigned incidents and tasks.
    expect(ask("handle", "incident")).toEqual([Role.FACILITY_MANAGER, Role.TECHNICIAN, Role.ADMINISTRATOR].sort());
    expect(ask("update", "task")).toEqual([Role.FACILITY_MANAGER, Role.TECHNICIAN, Role.ADMINISTRATOR].sort());
    // Managers and administrators manage tasks (told when one is done); administrators alone webhooks.
    expect(ask("manage", "task")).toEqual([Role.FACILITY_MANAGER, Role.ADMINISTRATOR].sort());
    expect(ask("manage", "webhook")).toEqual([Role.ADMINISTRATOR]);
    // Section 5: the administrator role is an administrator's matter.
    expect([Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR].map(roleIsAdministrators)).toEqual([false, false, true]);
  });
});
