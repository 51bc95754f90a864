import { describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { ForbiddenError } from "~/lib/errors";
import { ACTIONS, type Actor, assertCan, can, PERMISSIONS, personActor, personWhoCan, reachesWholeEntity, SUBJECTS, systemActor, tokenActor } from "./actor";

const technician = personActor({ id: 1, role: Role.TECHNICIAN });
const manager = personActor({ id: 2, role: Role.FACILITY_MANAGER });
const administrator = personActor({ id: 3, role: Role.ADMINISTRATOR });
const system = systemActor("test-job");
const every = SUBJECTS.flatMap((subject) => ACTIONS.map((action) => [action, subject] as const));

describe("the permission table", () => {
  it("grants managers what technicians have and the manager screens; administrators the administrators and the whole entity", () => {
    for (const [action, subject] of every) {
      if (can(technician, action, subject)) expect(can(manager, action, subject), `${action} ${subject}`).toBe(true);
      if (can(manager, action, subject)) expect(can(administrator, action, subject), `${action} ${subject}`).toBe(true);
    }
    expect(can(technician, "handle", "incident")).toBe(true);
    expect(can(technician, "manage", "place")).toBe(false);
    expect(can(technician, "open", "managerScreen")).toBe(false);
    expect(can(manager, "open", "managerScreen")).toBe(true);
    expect(can(manager, "manage", "administrator")).toBe(false);
    expect(can(administrator, "manage", "administrator")).toBe(true);
    expect(reachesWholeEntity(manager)).toBe(false);
    expect(reachesWholeEntity(administrator)).toBe(true);
  });

  it("lets the system do a job's work for its entity, but nothing of a person's or of people", () => {
    expect(can(system, "handle", "incident")).toBe(true);
    expect(can(system, "manage", "place")).toBe(true);
    expect(can(system, "deliver", "notification")).toBe(true);
    expect(reachesWholeEntity(system)).toBe(true);
    for (const [action, subject] of [["manage", "user"], ["manage", "administrator"], ["update", "account"], ["read", "notification"], ["open", "managerScreen"], ["comment", "incident"]] as const) {
      expect(can(system, action, subject), `${action} ${subject}`).toBe(false);
    }
    // Exactly what the table's system row says, no more.
    for (const [action, subject] of every) expect(can(system, action, subject)).toBe(Boolean(PERMISSIONS.system[subject]?.includes(action)));
  });

  it("never lets a token do what its person cannot, and only what its scopes grant", () => {
    const everything = SUBJECTS.map((s) => `${s}:*` as const);
    const technicianToken = tokenActor({ id: 1, role: Role.TECHNICIAN }, 9, everything);
    for (const [action, subject] of every) {
      expect(can(technicianToken, action, subject), `${action} ${subject}`).toBe(can(technician, action, subject));
    }
    const readOnly = tokenActor({ id: 2, role: Role.FACILITY_MANAGER }, 10, ["incident:read", "place:read"]);
    expect(can(readOnly, "read", "incident")).toBe(true);
    expect(can(readOnly, "handle", "incident")).toBe(false);
    expect(can(readOnly, "manage", "place")).toBe(false);
    expect(() => assertCan(technicianToken, "manage", "place")).toThrow(ForbiddenError);
    // A token acts for its person: their id, so their reach.
    expect(personWhoCan(technicianToken, "comment", "incident").id).toBe(1);
  });

  it("refuses nobody everything, and a role it does not know", () => {
    for (const [action, subject] of every) {
      expect(can(null, action, subject)).toBe(false);
      expect(can({ kind: "person", id: 4, role: 99 } as unknown as Actor, action, subject)).toBe(false);
    }
    expect(() => personWhoCan(system, "comment", "incident")).toThrow(ForbiddenError);
  });
});
