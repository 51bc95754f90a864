import { Role, ROLE_VALUES } from "~/db/enums";
import { ForbiddenError } from "~/lib/errors";

/**
 * Who acts (client-safe: the screens ask the same table to decide what they offer).
 *
 * - a **person**: a signed-in user of the entity, with their role;
 * - an **API token** (decision 056): its own actor, with its own role (never above its maker's), its
 *   own reach (some facilities, or its role's whole reach) and its scopes; it never does a person's own
 *   things (an account, notifications). Where a person must be recorded (a comment's author, an event's
 *   actor) it is the person who made the token; audit rows and change events also name the token;
 * - the **system**: a named background job or schedule acting for one entity (no person, no reach limit).
 *
 * What each may do is one table, `PERMISSIONS` (a holder's subjects and actions, as in Shelf.nu's
 * role-to-permission map), read by one function, `can(actor, action, subject)`. What part of the
 * facility tree a person reaches is not a permission but a SQL scope (`treeScope` and `incidentReach`
 * in modules/facilities/policy.server.ts): the table says whether an actor may manage rooms, the
 * scope which rooms.
 *
 * A context without an actor (`actor: null`) is nobody: a visitor of a public page. `can` refuses it
 * everything; the verbs open to visitors (an occupier's report, sign-up) say so themselves.
 */
export interface PersonActor {
  kind: "person";
  id: number;
  role: Role;
}

export interface TokenActor {
  kind: "token";
  /** The person who made the token: recorded where a person is required (an author, an event's actor). */
  id: number;
  /** The token's own role (never above its maker's): what it may do. */
  role: Role;
  tokenId: number;
  /** The token's name, recorded beside what it changes. */
  name?: string;
  /** What the token was granted, within its role's permissions ("incident:read", "incident:*"). */
  scopes: readonly Scope[];
  /**
   * The facilities it reaches (with all their buildings); null: its person's reach (their links; the
   * whole entity for an administrator's role).
   */
  facilityIds?: readonly number[] | null;
}

export interface SystemActor {
  kind: "system";
  /** No person acts: events and audit rows record no actor. */
  id: null;
  role: null;
  /** The job or schedule acting, e.g. "notify", "planned-maintenance". */
  name: string;
}

export type Actor = PersonActor | TokenActor | SystemActor;

/** An actor acting as (or for) a person: their id and role. */
export type PersonLike = PersonActor | TokenActor;

export function personActor(user: { id: number; role: number }): PersonActor {
  return { kind: "person", id: user.id, role: user.role as Role };
}

export function systemActor(name: string): SystemActor {
  return { kind: "system", id: null, role: null, name };
}

export function tokenActor(
  user: { id: number; role: number },
  tokenId: number,
  scopes: readonly Scope[],
  options: { name?: string; facilityIds?: readonly number[] | null } = {},
): TokenActor {
  return { kind: "token", id: user.id, role: user.role as Role, tokenId, scopes, name: options.name, facilityIds: options.facilityIds ?? null };
}

/**
 * The subjects an integration's token is given (every action its role allows on them): everything but
 * a person's own things (account, notifications, bug reports) and the screens.
 */
export const INTEGRATION_SCOPES: readonly Scope[] = ([
  "entity",
  "place",
  "catalogue",
  "incidentType",
  "incident",
  "user",
  "administrator",
  "dashboard",
  "maintenance",
  "task",
  "data",
  "printing",
  "time",
  "rate",
  "wholeEntity",
] as const satisfies readonly Subject[]).map((subject) => `${subject}:*` as const);

// ---------------------------------------------------------------------------
// The permission table
// ---------------------------------------------------------------------------

/**
 * The subjects and what can be done to them:
 * - `entity`: the organisation's settings and explanatory sticker;
 * - `place`: facilities, buildings, rooms and their equipment items (within reach);
 * - `catalogue`: room types, equipment categories, generic equipment;
 * - `incidentType`; `incident` (`handle`: status, priority, assignee, tags, text, files);
 * - `user`: the people of the entity; `administrator`: giving or changing the administrator role;
 * - `account`: one's own account (settings, password, language);
 * - `notification`: one's own notifications (`deliver`: writing anyone's, the dispatcher);
 * - `dashboard`, `maintenance`, `task`, `data` (import and export), `printing`;
 * - `time`: time and material recorded on incidents and tasks (`create`: one's own, on what one
 *   handles; `manage`: anyone's, within reach: record for another person, correct or delete any);
 * - `rate`: the hourly rates of the entity's people, its default rate and its currency (administrators
 *   only, issue 62);
 * - `webhook`: the entity's webhook endpoints and their deliveries; `audit`: the entity's audit history
 *   (administrators only, decision 057: both span the whole entity);
 * - `serviceLevel`: the entity's working hours, closed days, response and resolution targets and the
 *   warning before a breach (administrators only, decision 064: they span the whole entity);
 * - `managerScreen`: the screens of SPEC.md section 2 listed for managers and administrators;
 * - `adminScreen`: the administration pages for administrators alone (webhooks, the audit history:
 *   decision 057);
 * - `apiToken`: the entity's API tokens (administrators make and revoke them, managers see them);
 * - `wholeEntity`: `reach` the whole entity rather than linked facilities and buildings.
 */
export const SUBJECTS = [
  "entity",
  "place",
  "catalogue",
  "incidentType",
  "incident",
  "user",
  "administrator",
  "account",
  "notification",
  "dashboard",
  "maintenance",
  "task",
  "data",
  "printing",
  "time",
  "rate",
  "bugReport",
  "webhook",
  "audit",
  "serviceLevel",
  "managerScreen",
  "adminScreen",
  "apiToken",
  "wholeEntity",
] as const;
export type Subject = (typeof SUBJECTS)[number];

export const ACTIONS = ["read", "create", "update", "manage", "handle", "comment", "report", "deliver", "import", "export", "print", "open", "reach"] as const;
export type Action = (typeof ACTIONS)[number];

/** A token scope: one action on a subject, or every action (`*`) on it. */
export type Scope = `${Subject}:${Action | "*"}`;

type Holder = "technician" | "facilityManager" | "administrator" | "system";
type Grants = Readonly<Partial<Record<Subject, readonly Action[]>>>;
/** A permission table: each holder's subjects and actions. */
export type PermissionTable = Readonly<Record<Holder, Grants>>;

const technician: Grants = {
  entity: ["read"],
  place: ["read"],
  catalogue: ["read"],
  incidentType: ["read"],
  incident: ["read", "handle", "comment", "report"],
  account: ["read", "update"],
  notification: ["read", "update"],
  task: ["read", "update"],
  time: ["create"],
  bugReport: ["create"],
};

const facilityManager: Grants = {
  ...technician,
  entity: ["read", "update"],
  place: ["read", "manage"],
  catalogue: ["read", "manage"],
  incidentType: ["read", "manage"],
  user: ["read", "manage"],
  dashboard: ["read"],
  maintenance: ["read", "manage"],
  task: ["read", "update", "manage"],
  time: ["create", "manage"],
  data: ["import", "export"],
  printing: ["print"],
  managerScreen: ["open"],
  apiToken: ["read"],
};

export const PERMISSIONS: PermissionTable = {
  technician,
  facilityManager,
  administrator: {
    ...facilityManager,
    administrator: ["manage"],
    bugReport: ["create", "read"],
    webhook: ["read", "manage"],
    audit: ["read"],
    serviceLevel: ["read", "manage"],
    rate: ["read", "manage"],
    adminScreen: ["open"],
    apiToken: ["read", "manage"],
    wholeEntity: ["reach"],
  },
  // Background work for one entity: what jobs and schedules do, never a person's own things (account,
  // notifications read) nor people (users, administrators).
  system: {
    entity: ["read"],
    place: ["read", "manage"],
    catalogue: ["read", "manage"],
    incidentType: ["read", "manage"],
    incident: ["read", "handle", "report"],
    notification: ["deliver"],
    dashboard: ["read"],
    maintenance: ["read", "manage"],
    task: ["read", "update", "manage"],
    data: ["import", "export"],
    printing: ["print"],
    wholeEntity: ["reach"],
  },
};

/** The holder of each person's role in the table. */
const ROLE_HOLDERS: Readonly<Record<Role, Holder>> = {
  [Role.TECHNICIAN]: "technician",
  [Role.FACILITY_MANAGER]: "facilityManager",
  [Role.ADMINISTRATOR]: "administrator",
};

/** The roles in the order the screens offer them (SPEC.md section 5: technician first). */
export const ROLES_OFFERED: readonly Role[] = [Role.TECHNICIAN, Role.FACILITY_MANAGER, Role.ADMINISTRATOR];

/**
 * The table every question below reads: `PERMISSIONS`, or while a test changes a role's rights
 * (`replacePermissionsForTest`), the changed one.
 */
let table: PermissionTable = PERMISSIONS;

/**
 * Tests only: every question of this module (`can`, `roleCan`, `rolesThat`, and through them the queries
 * and screens that ask them) reads `changed` until the returned function restores the real table. This is
 * how a test shows that changing a role's rights in the table changes everything that depends on it.
 */
export function replacePermissionsForTest(changed: PermissionTable): () => void {
  table = changed;
  return () => {
    table = PERMISSIONS;
  };
}

function roleHolder(role: number | null | undefined): Holder | null {
  return role == null ? null : ((ROLE_HOLDERS as Readonly<Record<number, Holder | undefined>>)[role] ?? null);
}

function holderOf(actor: Actor): Holder | null {
  return actor.kind === "system" ? "system" : roleHolder(actor.role);
}

function grants(holder: Holder | null, action: Action, subject: Subject): boolean {
  return holder !== null && Boolean(table[holder][subject]?.includes(action));
}

/**
 * Whether a person of `role` may do `action` to `subject` (an unknown role: nothing). For decisions about
 * other people by their role (who is told, who may be assigned, whose links are shown); what the acting
 * person may do is `can(actor, ...)`.
 */
export function roleCan(role: number | null | undefined, action: Action, subject: Subject): boolean {
  return grants(roleHolder(role), action, subject);
}

/** The roles whose people may do `action` to `subject`: what SQL filters `users.role` with. */
export function rolesThat(action: Action, subject: Subject): Role[] {
  return ROLE_VALUES.filter((role) => roleCan(role, action, subject));
}

/** Whether people of `role` reach the whole entity (no links to facilities or buildings: SPEC.md sections 5 and 6). */
export function roleReachesWholeEntity(role: number | null | undefined): boolean {
  return roleCan(role, "reach", "wholeEntity");
}

/**
 * Whether people of `role` must be linked to a facility or building (SPEC.md section 5): the known roles
 * that do not reach the whole entity.
 */
export function roleNeedsLinks(role: number | null | undefined): boolean {
  return roleHolder(role) !== null && !roleReachesWholeEntity(role);
}

/**
 * Whether giving or changing `role` is an administrator's matter (SPEC.md section 5): the roles that may
 * manage administrators, which only those who may manage administrators give or change.
 */
export function roleIsAdministrators(role: number | null | undefined): boolean {
  return roleCan(role, "manage", "administrator");
}

/** Whether `actor` may do `action` to `subject`. Nobody (null) may do nothing. */
export function can(actor: Actor | null | undefined, action: Action, subject: Subject): boolean {
  if (!actor) return false;
  if (!grants(holderOf(actor), action, subject)) return false;
  if (actor.kind === "token") return actor.scopes.includes(`${subject}:${action}`) || actor.scopes.includes(`${subject}:*`);
  return true;
}

/**
 * Refuses (403) what `actor` may not do. Narrows the actor: what a person or token may do, a person or a
 * token does, unless the system may do it too.
 */
export function assertCan(actor: Actor | null | undefined, action: Action, subject: Subject, messageKey?: string, code?: string): asserts actor is Actor {
  if (!can(actor, action, subject)) throw new ForbiddenError(messageKey, code);
}

/** The person acting (themselves, or through a token) who may do `action` to `subject`; Forbidden otherwise. */
export function personWhoCan(actor: Actor | null | undefined, action: Action, subject: Subject, messageKey?: string, code?: string): PersonLike {
  if (!actor || actor.kind === "system" || !can(actor, action, subject)) throw new ForbiddenError(messageKey, code);
  return actor;
}

/** The person acting (themselves, or through a token); Forbidden for the system and for nobody. */
export function requirePerson(actor: Actor | null | undefined, messageKey?: string): PersonLike {
  if (!actor || actor.kind === "system") throw new ForbiddenError(messageKey);
  return actor;
}

/** The acting person's id (themselves or through a token); null for the system and nobody. */
export function actorUserId(actor: Actor | null | undefined): number | null {
  return actor?.id ?? null;
}

/**
 * Whether the actor reaches the whole entity (administrators, the system) rather than linked places; a
 * token limited to some facilities does not, whatever its role.
 */
export function reachesWholeEntity(actor: Actor | null | undefined): boolean {
  if (actor?.kind === "token" && actor.facilityIds) return false;
  return can(actor, "reach", "wholeEntity");
}

/** How an actor is recorded beside a change (change events, logs): no names, ids only. */
export function describeActor(actor: Actor | null | undefined): { kind: Actor["kind"] | "visitor"; id: number | null; name?: string; tokenId?: number } {
  if (!actor) return { kind: "visitor", id: null };
  if (actor.kind === "system") return { kind: "system", id: null, name: actor.name };
  if (actor.kind === "token") return { kind: "token", id: actor.id, tokenId: actor.tokenId, ...(actor.name ? { name: actor.name } : {}) };
  return { kind: "person", id: actor.id };
}
