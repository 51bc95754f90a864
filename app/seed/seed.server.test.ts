import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { crc32, inflateSync } from "node:zlib";
import { type SQL, sql } from "drizzle-orm";
import { createTestDatabase } from "#tests/test-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FileStore, systemContext } from "~/core/context.server";
import { imageSize, sniff } from "~/modules/files/sniff";
import { readStoredFile } from "~/modules/files/storage.server";
import { verifyPassword } from "~/modules/auth/password.server";
import type { Database, Db } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, Role, TaskStatus, UserStatus } from "~/db/enums";
import { isReportCode, newReportCode, REPORT_CODE_BITS } from "~/db/report-identifier";
import { DEMO_ACCOUNTS, DEMO_ENTITY_NAME, DEMO_PASSWORD, OTHER_ENTITY_NAME, SCALE_ACCOUNTS, SCALE_BUSY_INCIDENT, seedDemo, seedDemoIfEmpty, seedScale } from "./seed.server";
import { nextShortId } from "~/db/short-id.server";
import { findCounterDrift } from "~/modules/facilities/counters.server";
import { DONE_COMMENTS, type Lang, PROBLEMS, PROGRESS_COMMENTS, REJECTED_COMMENTS, TYPE_COMMENTS } from "./demo-texts";

let database: Database;
let db: Db;
/** Where the demo photos go in these tests. */
let files: FileStore;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  files = { root: await fs.mkdtemp(path.join(os.tmpdir(), "seed-test-files-")), maxBytes: 10 * 1024 * 1024 };
});

afterAll(async () => {
  await database?.close();
  if (files) await fs.rm(files.root, { recursive: true, force: true });
});

async function query<T>(q: SQL): Promise<T[]> {
  return ((await db.execute(q)) as unknown as { rows: T[] }).rows;
}

async function one<T>(q: SQL): Promise<T> {
  const [row] = await query<T>(q);
  return row;
}

const COUNTED_TABLES = [
  "entities",
  "users",
  "user_linked_objects",
  "facilities",
  "buildings",
  "rooms",
  "room_types",
  "equipment_categories",
  "equipment_types",
  "equipment_items",
  "report_identifiers",
  "incident_types",
  "incidents",
  "incident_events",
  "incident_reporters",
  "incident_comments",
  "incident_checklist_answers",
  "incident_files",
  "incident_comment_files",
  "stored_files",
  "incident_status_counts",
  "maintenance_types",
  "planned_maintenances",
  "tasks",
  "notification_details",
  "notifications",
  "entity_counters",
];

async function tableCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    counts[table] = (await one<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`)).n;
  }
  return counts;
}

async function entityIdByName(name: string): Promise<number> {
  return (await one<{ id: number }>(sql`select id from entities where name = ${name}`)).id;
}

/** [child table, foreign-key column, parent table]: both ends must belong to the same entity. */
const SAME_ENTITY_LINKS: [string, string, string][] = [
  ["buildings", "facility_id", "facilities"],
  ["rooms", "building_id", "buildings"],
  ["rooms", "room_type_id", "room_types"],
  ["room_links", "room_id", "rooms"],
  ["equipment_types", "category_id", "equipment_categories"],
  ["equipment_items", "equipment_type_id", "equipment_types"],
  ["equipment_items", "room_id", "rooms"],
  ["report_identifiers", "room_id", "rooms"],
  ["report_identifiers", "equipment_item_id", "equipment_items"],
  ["user_linked_objects", "user_id", "users"],
  ["user_linked_objects", "facility_id", "facilities"],
  ["user_linked_objects", "building_id", "buildings"],
  ["incident_types", "id", "incident_types"],
  ["incident_type_default_assignees", "incident_type_id", "incident_types"],
  ["incident_type_default_assignees", "user_id", "users"],
  ["incident_type_room_types", "incident_type_id", "incident_types"],
  ["incident_type_room_types", "room_type_id", "room_types"],
  ["incident_type_equipment_types", "incident_type_id", "incident_types"],
  ["incident_type_equipment_types", "equipment_type_id", "equipment_types"],
  ["incident_type_checklist_items", "incident_type_id", "incident_types"],
  ["incidents", "room_id", "rooms"],
  ["incidents", "equipment_item_id", "equipment_items"],
  ["incidents", "incident_type_id", "incident_types"],
  ["incidents", "assignee_id", "users"],
  ["incidents", "duplicate_of_id", "incidents"],
  ["incident_events", "incident_id", "incidents"],
  ["incident_events", "actor_id", "users"],
  ["incident_reporters", "incident_id", "incidents"],
  ["incident_comments", "incident_id", "incidents"],
  ["incident_comments", "author_id", "users"],
  ["incident_comments", "edited_by_id", "users"],
  ["incident_checklist_answers", "incident_id", "incidents"],
  ["incident_checklist_answers", "file_id", "stored_files"],
  ["incident_files", "incident_id", "incidents"],
  ["incident_files", "file_id", "stored_files"],
  ["incident_comment_files", "comment_id", "incident_comments"],
  ["incident_comment_files", "file_id", "stored_files"],
  ["maintenance_type_assignees", "maintenance_type_id", "maintenance_types"],
  ["maintenance_type_assignees", "user_id", "users"],
  ["planned_maintenances", "maintenance_type_id", "maintenance_types"],
  ["planned_maintenance_assignees", "planned_maintenance_id", "planned_maintenances"],
  ["planned_maintenance_rooms", "room_id", "rooms"],
  ["planned_maintenance_equipment_items", "equipment_item_id", "equipment_items"],
  ["planned_maintenance_locations", "planned_maintenance_id", "planned_maintenances"],
  ["planned_maintenance_locations", "facility_id", "facilities"],
  ["planned_maintenance_locations", "building_id", "buildings"],
  ["tasks", "planned_maintenance_id", "planned_maintenances"],
  ["tasks", "room_id", "rooms"],
  ["tasks", "equipment_item_id", "equipment_items"],
  ["tasks", "assignee_id", "users"],
  ["notification_details", "incident_id", "incidents"],
  ["notifications", "details_id", "notification_details"],
  ["notifications", "user_id", "users"],
  ["maintenance_type_checks", "maintenance_type_id", "maintenance_types"],
  ["task_check_answers", "task_id", "tasks"],
  ["task_check_answers", "incident_id", "incidents"],
];

/** The demo's reported incidents: not the one an inspection's failed check opened (it carries the inspection's answers). */
const REPORTED = sql`id not in (select incident_id from task_check_answers where incident_id is not null)`;

async function crossEntityReferences(): Promise<string[]> {
  const problems: string[] = [];
  for (const [child, column, parent] of SAME_ENTITY_LINKS) {
    const { n } = await one<{ n: number }>(sql`
      select count(*)::int as n
      from ${sql.identifier(child)} c
      join ${sql.identifier(parent)} p on p.id = c.${sql.identifier(column)}
      where p.entity_id <> c.entity_id`);
    if (n > 0) problems.push(`${child}.${column} -> ${parent}: ${n}`);
  }
  return problems;
}

/** Where the per-status totals (kept by a trigger) differ from a count of the incidents. */
async function statusCountDrift(entityId: number): Promise<{ status: number; kept: number; counted: number }[]> {
  return query(sql`
    select coalesce(k.status, c.status)::int as status, coalesce(k.count, 0)::int as kept, coalesce(c.n, 0)::int as counted
    from (select status, count from incident_status_counts where entity_id = ${entityId}) k
    full join (select status, count(*) as n from incidents where entity_id = ${entityId} and archived_at is null group by status) c
      on c.status = k.status
    where coalesce(k.count, 0) <> coalesce(c.n, 0)`);
}

describe("seedDemo", () => {
  it("seeds an empty database once, and a second run changes nothing", async () => {
    expect(await seedDemoIfEmpty(db, files)).toBe(true);
    const first = await tableCounts();

    expect(await seedDemo(db, { files })).toEqual({ created: false });
    expect(await seedDemoIfEmpty(db, files)).toBe(false);
    expect(await tableCounts()).toEqual(first);

    expect(first).toMatchObject({ entities: 2, users: 5, facilities: 4, buildings: 9, rooms: 33 });
    // 63 reported, and one opened by the fire safety inspection's failed check.
    expect(first.incidents).toBe(64);
  });

  it("creates the demo accounts with their roles and the demo password", async () => {
    const expected = [
      [DEMO_ACCOUNTS.admin, Role.ADMINISTRATOR, DEMO_ENTITY_NAME],
      [DEMO_ACCOUNTS.manager, Role.FACILITY_MANAGER, DEMO_ENTITY_NAME],
      [DEMO_ACCOUNTS.technician, Role.TECHNICIAN, DEMO_ENTITY_NAME],
      [DEMO_ACCOUNTS.other, Role.ADMINISTRATOR, OTHER_ENTITY_NAME],
    ] as const;
    for (const [email, role, entityName] of expected) {
      const user = await one<{ role: number; status: number; password_hash: string; entity: string }>(sql`
        select u.role, u.status, u.password_hash, e.name as entity
        from users u join entities e on e.id = u.entity_id where u.email = ${email}`);
      expect(user, email).toMatchObject({ role, status: UserStatus.ACTIVE, entity: entityName });
      expect(await verifyPassword(user.password_hash, DEMO_PASSWORD), email).toBe(true);
      expect(await verifyPassword(user.password_hash, "wrong-password"), email).toBe(false);
    }
  });

  it("links the manager to every facility and the technician to one facility and one building elsewhere", async () => {
    type Link = { email: string; facility: string | null; building: string | null; of: string | null };
    const links = await query<Link>(sql`
      select u.email, f.name as facility, b.name as building, bf.name as of
      from user_linked_objects l
      join users u on u.id = l.user_id
      left join facilities f on f.id = l.facility_id
      left join buildings b on b.id = l.building_id
      left join facilities bf on bf.id = b.facility_id
      order by u.email, f.name, b.name`);
    expect(links).toEqual([
      { email: DEMO_ACCOUNTS.manager, facility: "Harbour Site", building: null, of: null },
      { email: DEMO_ACCOUNTS.manager, facility: "Main Campus", building: null, of: null },
      { email: DEMO_ACCOUNTS.manager, facility: "Science Park", building: null, of: null },
      { email: DEMO_ACCOUNTS.technician, facility: "Main Campus", building: null, of: null },
      { email: DEMO_ACCOUNTS.technician, facility: null, building: "Lab Building A", of: "Science Park" },
    ]);
  });

  it("has incidents in every status, spread over about six months, with their events", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const byStatus = await query<{ status: number; n: number }>(sql`
      select status, count(*)::int as n from incidents where entity_id = ${entityId} group by status order by status`);
    expect(byStatus.map((r) => r.status)).toEqual([
      IncidentStatus.PENDING,
      IncidentStatus.IN_PROGRESS,
      IncidentStatus.DONE,
      IncidentStatus.REJECTED,
      IncidentStatus.ARCHIVED,
    ]);
    // 60 reported, and the one the fire safety inspection opened.
    expect(byStatus.reduce((sum, r) => sum + r.n, 0)).toBe(61);

    const span = await one<{ days: number; future: number; bad_done: number; short_ids: number }>(sql`
      select extract(epoch from max(created_at) - min(created_at))::float8 / 86400 as days,
        count(*) filter (where created_at > now())::int as future,
        count(*) filter (where (status in (2, 4)) <> (done_at is not null) or done_at < created_at)::int as bad_done,
        (max(short_id) - min(short_id) + 1 - count(*))::int as short_ids
      from incidents where entity_id = ${entityId}`);
    expect(span.days).toBeGreaterThan(150);
    expect(span.days).toBeLessThan(190);
    expect(span).toMatchObject({ future: 0, bad_done: 0, short_ids: 0 });

    const events = await one<{ without_created: number; handled_without_status_event: number }>(sql`
      select
        count(*) filter (where not exists (select 1 from incident_events e where e.incident_id = i.id
          and e.type = ${IncidentEventType.CREATED}))::int as without_created,
        count(*) filter (where i.status <> 0 and not exists (select 1 from incident_events e
          where e.incident_id = i.id and e.type = ${IncidentEventType.STATUS_UPDATE}))::int
          as handled_without_status_event
      from incidents i where i.entity_id = ${entityId}`);
    expect(events).toEqual({ without_created: 0, handled_without_status_event: 0 });

    const extras = await one<{ assigned: number; tagged: number; reporters: number; comments: number }>(sql`
      select
        (select count(*)::int from incidents where entity_id = ${entityId} and assignee_id is not null) as assigned,
        (select count(*)::int from incidents where entity_id = ${entityId} and cardinality(tags) > 0) as tagged,
        (select count(*)::int from incident_reporters where entity_id = ${entityId}) as reporters,
        (select count(*)::int from incident_comments where entity_id = ${entityId}) as comments`);
    expect(extras.assigned).toBeGreaterThan(30);
    expect(extras.tagged).toBeGreaterThan(10);
    expect(extras.reporters).toBeGreaterThanOrEqual(60);
    expect(extras.comments).toBeGreaterThan(0);

    const manager = await one<{ unread: number; total: number }>(sql`
      select count(*) filter (where n.read_at is null)::int as unread, count(*)::int as total
      from notifications n join users u on u.id = n.user_id where u.email = ${DEMO_ACCOUNTS.manager}`);
    expect(manager.total).toBeGreaterThanOrEqual(3);
    expect(manager.unread).toBeGreaterThan(0);
  });

  it("sets Demo Campus's service levels and gives its incidents clocks met, missed, overdue and due soon", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const settings = await one<{ hours: number; closed: number; targets: number; lead: number }>(sql`
      select (select count(*)::int from service_level_opening_hours where entity_id = ${entityId}) as hours,
        (select count(*)::int from service_level_closed_days where entity_id = ${entityId}) as closed,
        (select count(*)::int from service_level_targets where entity_id = ${entityId}) as targets,
        (select warn_before_minutes from service_level_settings where entity_id = ${entityId}) as lead`);
    expect(settings).toMatchObject({ hours: 5, targets: 5, lead: 60 });
    expect(settings.closed).toBeGreaterThanOrEqual(30); // Belgium's ten public holidays a year, three years
    const clocks = await one<{ without: number; met: number; missed: number; overdue: number; soon: number; done_open: number }>(sql`
      select count(*) filter (where response_target_minutes is null or resolution_target_minutes is null)::int as without,
        count(*) filter (where response_met or resolution_met)::int as met,
        count(*) filter (where response_met = false or resolution_met = false)::int as missed,
        count(*) filter (where next_due_at <= now())::int as overdue,
        count(*) filter (where next_due_at > now() and next_due_at <= now() + interval '4 days')::int as soon,
        count(*) filter (where status = ${IncidentStatus.DONE} and (resolved_at is null or next_due_at is not null))::int as done_open
      from incidents where entity_id = ${entityId}`);
    expect(clocks).toMatchObject({ without: 0, done_open: 0 });
    expect(clocks.met).toBeGreaterThan(0);
    expect(clocks.missed).toBeGreaterThan(0);
    expect(clocks.overdue).toBeGreaterThan(0);
    expect(clocks.soon).toBeGreaterThan(0);
  });

  it("has a fire safety checklist in three languages and a signed-off inspection whose low pressure opened an incident", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const checks = await query<{ label: string; label_nl: string; kind: number }>(sql`
      select c.label, c.label_nl, c.kind::int as kind from maintenance_type_checks c join maintenance_types t on t.id = c.maintenance_type_id
      where c.entity_id = ${entityId} and t.name = 'Fire safety check' order by c.position`);
    expect(checks.map((c) => c.label)).toEqual(["Extinguisher seal intact", "Extinguisher pressure (bar)", "Emergency lighting works", "Remarks"]);
    expect(checks[1]).toMatchObject({ label_nl: "Druk van de blusser (bar)", kind: 1 });
    const failed = await query<{ answer: string; title: string; priority: number; signed: string | null }>(sql`
      select a.answer, i.title, i.priority::int as priority, t.signed_off_name as signed from task_check_answers a
      join incidents i on i.id = a.incident_id join tasks t on t.id = a.task_id where a.entity_id = ${entityId}`);
    expect(failed).toEqual([{ answer: "10.5", title: "Fire safety check – Lab Building A: Extinguisher pressure (bar)", priority: 3, signed: expect.any(String) }]);
  });

  it("records time and material on some Done incidents, and has an equipment item with three failures", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const work = await one<{ entries: number; lines: number; not_done: number; unpriced: number }>(sql`
      select (select count(*)::int from time_entries where entity_id = ${entityId}) as entries,
        (select count(*)::int from time_entries where entity_id = ${entityId} and hourly_rate is null) as unpriced,
        (select count(*)::int from material_lines where entity_id = ${entityId}) as lines,
        (select count(*)::int from time_entries t join incidents i on i.id = t.incident_id where t.entity_id = ${entityId} and i.status <> ${IncidentStatus.DONE}) as not_done`);
    expect(work.entries).toBeGreaterThanOrEqual(6);
    expect(work.lines).toBeGreaterThanOrEqual(3);
    expect(work.not_done).toBe(0);
    // Every demo entry has its worker's rate: the incident view and the work order show costs.
    expect(work.unpriced).toBe(0);
    // Done tasks have work too: three entries (the task view's totals), a material line on one.
    const onTasks = await one<{ entries: number; lines: number; pending: number }>(sql`
      select (select count(*)::int from time_entries where entity_id = ${entityId} and task_id is not null) as entries,
        (select count(*)::int from material_lines where entity_id = ${entityId} and task_id is not null) as lines,
        (select count(*)::int from time_entries w join tasks t on t.id = w.task_id where w.entity_id = ${entityId} and t.status <> ${TaskStatus.DONE}) as pending`);
    expect(onTasks).toEqual({ entries: 3, lines: 1, pending: 0 });
    const { failures } = await one<{ failures: number }>(sql`
      select max(n)::int as failures from (select count(*) as n from incidents where entity_id = ${entityId} and equipment_item_id is not null
        and status <> ${IncidentStatus.REJECTED} and duplicate_of_id is null and archived_at is null group by equipment_item_id) f`);
    expect(failures).toBeGreaterThanOrEqual(3);
    // The failing radiator was out of service each time: one item, three incidents marked down.
    const down = await one<{ items: number; incidents: number }>(sql`
      select count(distinct equipment_item_id)::int as items, count(*)::int as incidents from incidents where entity_id = ${entityId} and equipment_down`);
    expect(down).toEqual({ items: 1, incidents: 3 });
  });

  it("gives the demo entity incident types in three languages, with checklists of every content type", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const types = await query<{ name: string; full: boolean; everywhere: boolean; room_types: number; items: number }>(sql`
      select t.name_en as name, (t.name_en is not null and t.name_fr is not null and t.name_nl is not null) as full,
        t.applies_everywhere as everywhere,
        (select count(*)::int from incident_type_room_types l where l.incident_type_id = t.id) as room_types,
        (select count(*)::int from incident_type_checklist_items c where c.incident_type_id = t.id) as items
      from incident_types t where t.entity_id = ${entityId} and t.archived_at is null order by t.name_en`);
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(["Network or Wi-Fi problem", "Printer problem", "Broken chair or desk", "Fire safety", "Water leak"]));
    expect(types.length).toBeGreaterThanOrEqual(10);
    expect(types.every((t) => t.full)).toBe(true);
    expect(types.every((t) => t.items > 0)).toBe(true);
    expect(types.filter((t) => t.everywhere).map((t) => t.name)).toEqual(["Fire safety"]);
    expect(types.filter((t) => !t.everywhere).every((t) => t.room_types > 0)).toBe(true);
    const contentTypes = await query<{ content_type: number }>(sql`
      select distinct content_type from incident_type_checklist_items where entity_id = ${entityId} order by content_type`);
    expect(contentTypes.map((c) => c.content_type)).toEqual([0, 1, 2, 3]);
    const photo = await query<{ question: string }>(sql`
      select question from incident_type_checklist_items where entity_id = ${entityId} and content_type = 3`);
    expect(photo.map((p) => p.question)).toContain("Take a photo of the damage");
    // Every demo incident's type applies to its room (or everywhere).
    const misplaced = await one<{ n: number }>(sql`
      select count(*)::int as n from incidents i join incident_types t on t.id = i.incident_type_id
      join rooms r on r.id = i.room_id
      where i.entity_id = ${entityId} and not t.applies_everywhere and not exists (
        select 1 from incident_type_room_types l where l.incident_type_id = t.id and l.room_type_id = r.room_type_id)`);
    expect(misplaced.n).toBe(0);
  });

  it("keeps the two entities apart", async () => {
    const other = await entityIdByName(OTHER_ENTITY_NAME);
    const counts = await one<Record<string, number>>(sql`
      select
        (select count(*)::int from users where entity_id = ${other}) as users,
        (select count(*)::int from facilities where entity_id = ${other}) as facilities,
        (select count(*)::int from buildings where entity_id = ${other}) as buildings,
        (select count(*)::int from rooms where entity_id = ${other}) as rooms,
        (select count(*)::int from equipment_items where entity_id = ${other}) as items,
        (select count(*)::int from incident_types where entity_id = ${other}) as incident_types,
        (select count(*)::int from incidents where entity_id = ${other}) as incidents`);
    expect(counts).toEqual({
      users: 1,
      facilities: 1,
      buildings: 1,
      rooms: 2,
      items: 2, // every room has at least one item (SPEC.md section 5): the board room has a printer too
      incident_types: 1,
      incidents: 3,
    });
    expect(await crossEntityReferences()).toEqual([]);
  });

  it("leaves the list counters of both entities right", async () => {
    for (const name of [DEMO_ENTITY_NAME, OTHER_ENTITY_NAME]) {
      const entityId = await entityIdByName(name);
      expect(await findCounterDrift(db, entityId), name).toEqual([]);
      expect(await statusCountDrift(entityId), name).toEqual([]);
    }
    const demo = await entityIdByName(DEMO_ENTITY_NAME);
    const open = await one<{ n: number }>(sql`select coalesce(sum(active_incident_count), 0)::int as n from facilities where entity_id = ${demo}`);
    expect(open.n).toBeGreaterThan(0);
  });

  it("gives every demo incident an event history that replays to its current state", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    type Row = {
      id: number;
      short_id: number;
      title: string;
      description: string | null;
      status: number;
      priority: number | null;
      assignee_id: number | null;
      tags: string[];
      created_at: Date;
      updated_at: Date;
    };
    const rows = await query<Row>(sql`
      select id, short_id, title, description, status, priority, assignee_id, tags, created_at, updated_at
      from incidents where entity_id = ${entityId} and ${REPORTED} order by id`);
    type Ev = { incident_id: number; type: number; actor_id: number | null; old_value: unknown; new_value: unknown; created_at: Date };
    const events = await query<Ev>(sql`
      select incident_id, type, actor_id, old_value, new_value, created_at from incident_events
      where entity_id = ${entityId} order by incident_id, created_at, id`);
    const names = new Map(
      (await query<{ id: number; name: string }>(sql`
        select id, name || ' ' || surname as name from users where entity_id = ${entityId}`)).map((u) => [u.id, u.name]),
    );
    const problems: string[] = [];
    for (const incident of rows) {
      const own = events.filter((e) => e.incident_id === incident.id);
      const [created, ...rest] = own;
      const where = `#${incident.short_id}`;
      if (created?.type !== IncidentEventType.CREATED) {
        problems.push(`${where}: first event is not CREATED`);
        continue;
      }
      // Replay: start from what was reported, apply every change in time order.
      const first = created.new_value as { title: string; status: number; priority: number | null };
      const state = {
        title: first.title,
        description: null as string | null,
        status: first.status,
        priority: first.priority,
        assignee: null as number | null,
        tags: [] as string[],
      };
      if (first.status !== IncidentStatus.PENDING) problems.push(`${where}: not reported as pending`);
      for (const e of rest) {
        if (e.created_at < incident.created_at || e.created_at > incident.updated_at) problems.push(`${where}: event ${e.type} out of time`);
        switch (e.type) {
          case IncidentEventType.ASSIGNED: {
            const before = e.old_value as { id: number } | null;
            const after = e.new_value as { id: number; name: string } | null;
            if ((before?.id ?? null) !== state.assignee) problems.push(`${where}: ASSIGNED from the wrong person`);
            if (after && names.get(after.id) !== after.name) problems.push(`${where}: ASSIGNED name ${after.name}`);
            state.assignee = after?.id ?? null;
            break;
          }
          case IncidentEventType.STATUS_UPDATE:
            if (e.old_value !== state.status) problems.push(`${where}: status from ${String(e.old_value)}, was ${state.status}`);
            state.status = e.new_value as number;
            break;
          case IncidentEventType.PRIORITY_UPDATE:
            if (e.old_value !== state.priority) problems.push(`${where}: priority from ${String(e.old_value)}`);
            state.priority = e.new_value as number;
            break;
          case IncidentEventType.ADD_TAG:
            state.tags.push(e.new_value as string);
            break;
          case IncidentEventType.DELETE_TAG:
            if (!state.tags.includes(e.old_value as string)) problems.push(`${where}: removes a tag it lacks`);
            state.tags = state.tags.filter((t) => t !== e.old_value);
            break;
          case IncidentEventType.TITLE_UPDATE:
            if (e.old_value !== state.title) problems.push(`${where}: title from ${String(e.old_value)}`);
            state.title = e.new_value as string;
            break;
          case IncidentEventType.DESCRIPTION_UPDATE:
            state.description = e.new_value as string;
            break;
          case IncidentEventType.DUPLICATE:
            break;
          default:
            problems.push(`${where}: unexpected event ${e.type}`);
        }
        // Only an assignment may be the system's (the type's default assignee); the rest is someone's doing.
        if (e.actor_id === null && e.type !== IncidentEventType.ASSIGNED) problems.push(`${where}: event ${e.type} without actor`);
      }
      expect(
        { title: state.title, status: state.status, priority: state.priority, assignee: state.assignee, tags: [...state.tags].sort() },
        where,
      ).toEqual({
        title: incident.title,
        status: incident.status,
        priority: incident.priority,
        assignee: incident.assignee_id,
        tags: [...incident.tags].sort(),
      });
      if (state.description !== null) expect(state.description, where).toBe(incident.description);
      expect(incident.tags.length, where).toBeLessThanOrEqual(3);
      expect(incident.tags.every((t) => t.length <= 20), where).toBe(true);
    }
    expect(problems).toEqual([]);
    // Every kind of event of the spec (0-8) appears somewhere.
    expect([...new Set(events.map((e) => e.type))].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // Reassignments and occurrences folded from several reporters are shown too.
    expect(events.some((e) => e.type === IncidentEventType.ASSIGNED && e.old_value !== null && e.new_value !== null)).toBe(true);
    const several = await one<{ n: number }>(sql`
      select count(*)::int as n from incidents i where i.entity_id = ${entityId} and i.occurrences > 1
        and (select count(*) from incident_reporters r where r.incident_id = i.id) > 1`);
    expect(several.n).toBeGreaterThanOrEqual(3);
  });

  it("closes one demo incident as a duplicate of another, with event 4 on both", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const pairs = await query<{ id: number; short_id: number; status: number; occurrences: number; kept_id: number; kept_short_id: number; kept_occurrences: number; title: string; kept_title: string; room: boolean }>(sql`
      select d.id, d.short_id, d.status, d.occurrences, k.id as kept_id, k.short_id as kept_short_id,
        k.occurrences as kept_occurrences, d.title, k.title as kept_title, d.room_id = k.room_id as room
      from incidents d join incidents k on k.id = d.duplicate_of_id where d.entity_id = ${entityId}`);
    expect(pairs).toHaveLength(1);
    const [pair] = pairs;
    expect(pair.status).toBe(IncidentStatus.REJECTED);
    expect(pair.room).toBe(true);
    expect(pair.kept_occurrences).toBeGreaterThan(pair.occurrences);
    const fourth = await query<{ incident_id: number; new_value: Record<string, number> }>(sql`
      select incident_id, new_value from incident_events where type = ${IncidentEventType.DUPLICATE}
        and incident_id in (${pair.id}, ${pair.kept_id}) order by incident_id`);
    expect(fourth.find((e) => e.incident_id === pair.id)?.new_value).toEqual({ id: pair.kept_id, shortId: pair.kept_short_id });
    expect(fourth.find((e) => e.incident_id === pair.kept_id)?.new_value).toEqual({
      id: pair.id,
      shortId: pair.short_id,
      occurrences: pair.occurrences,
    });
    // The duplicate's reporters joined the kept incident's.
    const missing = await one<{ n: number }>(sql`
      select count(*)::int as n from incident_reporters r where r.incident_id = ${pair.id}
        and not exists (select 1 from incident_reporters k where k.incident_id = ${pair.kept_id} and lower(k.email) = lower(r.email))`);
    expect(missing.n).toBe(0);
  });

  it("writes the demo incidents and their comments in English, French and Dutch", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const languages: Lang[] = ["en", "fr", "nl"];
    const index = { en: 0, fr: 1, nl: 2 } as const;
    // A title matches a problem's title in a language (`{room}` stands for any room number).
    const titlePatterns = languages.map((lang) =>
      Object.values(PROBLEMS)
        .flat()
        .map((p) => new RegExp(`^${p.title[index[lang]].replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace("{room}", "[A-Z]{3}\\.\\d\\.\\d{2}")}$`)),
    );
    const titles = (await query<{ title: string }>(sql`select title from incidents where entity_id = ${entityId} and ${REPORTED}`)).map((r) => r.title);
    const titleLanguages = titles.map((t) => languages.filter((_, l) => titlePatterns[l].some((re) => re.test(t))));
    expect(titleLanguages.every((l) => l.length > 0), "every title is a known problem").toBe(true);
    for (const lang of languages) expect(titleLanguages.filter((l) => l.includes(lang)).length, lang).toBeGreaterThan(0);
    expect(titleLanguages.filter((l) => l[0] === "en").length).toBeGreaterThan(titles.length / 2);

    const known = (lang: Lang) =>
      new Set([...PROGRESS_COMMENTS, ...DONE_COMMENTS, ...REJECTED_COMMENTS, ...Object.values(TYPE_COMMENTS)].map((t) => t[index[lang]]));
    const comments = await query<{ body: string; author_id: number; edited_at: Date | null; edited_by_id: number | null; created_at: Date }>(sql`
      select body, author_id, edited_at, edited_by_id, created_at from incident_comments where entity_id = ${entityId}`);
    for (const lang of languages) {
      const set = known(lang);
      expect(comments.filter((c) => set.has(c.body)).length, lang).toBeGreaterThan(0);
    }
    expect(comments.length).toBeGreaterThanOrEqual(30);
    // Some were edited by their author, after they were written.
    const edited = comments.filter((c) => c.edited_at);
    expect(edited.length).toBeGreaterThan(0);
    expect(edited.every((c) => c.edited_by_id === c.author_id && c.edited_at! > c.created_at)).toBe(true);
  });

  it("stores real photos for some demo incidents and a comment, readable from the file store", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    const linked = await query<{ file_id: string; owner: string }>(sql`
      select file_id, 'incident' as owner from incident_files where entity_id = ${entityId}
      union all
      select file_id, 'comment' from incident_comment_files where entity_id = ${entityId}`);
    expect(linked.filter((l) => l.owner === "incident").length).toBeGreaterThanOrEqual(5);
    expect(linked.filter((l) => l.owner === "comment").length).toBeGreaterThanOrEqual(1);
    const ctx = systemContext({ db }, entityId, "seed-test");
    for (const { file_id } of linked) {
      const { file, bytes } = await readStoredFile(ctx, files, file_id);
      expect(file.mimeType).toBe("image/png");
      expect(sniff(bytes)?.mime).toBe("image/png");
      expect(file.sizeBytes).toBe(bytes.byteLength);
      const size = imageSize(bytes)!;
      expect(size).toEqual({ width: 320, height: 240 });
      // A valid PNG: every chunk's CRC holds and the pixels inflate to the size the header says.
      let offset = 8;
      const idat: Buffer[] = [];
      while (offset < bytes.length) {
        const length = bytes.readUInt32BE(offset);
        const type = bytes.subarray(offset + 4, offset + 8).toString("ascii");
        const body = bytes.subarray(offset + 4, offset + 8 + length);
        expect(bytes.readUInt32BE(offset + 8 + length), type).toBe(crc32(body));
        if (type === "IDAT") idat.push(bytes.subarray(offset + 8, offset + 8 + length));
        offset += 12 + length;
      }
      expect(inflateSync(Buffer.concat(idat)).length).toBe((size.width * 3 + 1) * size.height);
    }
  });

  it("answers the checklist of each demo incident's type, with the type's questions in the reporter's language", async () => {
    const entityId = await entityIdByName(DEMO_ENTITY_NAME);
    // Every question of the type answered once, in order, in one of its three languages (the reporter's).
    const mismatched = await one<{ n: number }>(sql`
      select count(*)::int as n from incidents i
      where i.entity_id = ${entityId} and ${REPORTED} and (
        (select coalesce(array_agg(a.position || '|' || a.content_type order by a.position), '{}')
          from incident_checklist_answers a where a.incident_id = i.id)
        is distinct from
        (select coalesce(array_agg(c.position || '|' || c.content_type order by c.position), '{}')
          from incident_type_checklist_items c where c.incident_type_id = i.incident_type_id)
        or exists (
          select 1 from incident_checklist_answers a
          join incident_type_checklist_items c on c.incident_type_id = i.incident_type_id and c.position = a.position
          where a.incident_id = i.id and a.question not in (c.question, c.question_fr, c.question_nl)))`);
    expect(mismatched.n).toBe(0);
    const answers = await query<{ content_type: number; answer: string | null; file_id: string | null; linked: boolean }>(sql`
      select a.content_type, a.answer, a.file_id,
        exists (select 1 from incident_files f where f.incident_id = a.incident_id and f.file_id = a.file_id) as linked
      from incident_checklist_answers a where a.entity_id = ${entityId} and a.incident_id in (select id from incidents where ${REPORTED})`);
    expect(answers.length).toBeGreaterThanOrEqual(60);
    expect(answers.filter((a) => a.content_type === 0).every((a) => a.answer === "yes" || a.answer === "no")).toBe(true);
    expect(answers.filter((a) => a.content_type === 1).every((a) => !!a.answer && a.answer.length > 1)).toBe(true);
    expect(answers.filter((a) => a.content_type === 2).every((a) => /^\d+$/.test(a.answer ?? ""))).toBe(true);
    const photos = answers.filter((a) => a.content_type === 3);
    expect(photos.every((a) => a.answer === null && (a.file_id === null || a.linked))).toBe(true);
    expect(photos.filter((a) => a.file_id).length).toBeGreaterThan(0);
  });

  it("gives every room and equipment item one QR code in the newReportCode format", async () => {
    const codes = await query<{ code: string }>(sql`select code from report_identifiers`);
    expect(codes.every((c) => isReportCode(c.code))).toBe(true);
    const missing = await one<{ rooms: number; items: number }>(sql`
      select
        (select count(*)::int from rooms r where not exists
          (select 1 from report_identifiers ri where ri.room_id = r.id)) as rooms,
        (select count(*)::int from equipment_items i where not exists
          (select 1 from report_identifiers ri where ri.equipment_item_id = i.id)) as items`);
    expect(missing).toEqual({ rooms: 0, items: 0 });
  });
});

describe("newReportCode", () => {
  it("makes URL-safe, unguessable codes of at least 64 bits", () => {
    expect(REPORT_CODE_BITS).toBeGreaterThanOrEqual(64);
    const codes = Array.from({ length: 2000 }, () => newReportCode());
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]{4,32}$/);
      expect(isReportCode(code)).toBe(true);
      expect(code).not.toMatch(/[01IO]/);
    }
    expect(isReportCode("abc")).toBe(false);
  });
});

describe("seedScale", () => {
  it("creates the scaled counts with unique report codes and contiguous short ids", async () => {
    const logs: string[] = [];
    const result = await seedScale(db, 0.002, { log: (m) => logs.push(m), batchSize: 700 });
    expect(result.created).toBe(true);
    expect(result.counts).toEqual({
      facilities: 1,
      buildings: 2,
      rooms: 100,
      equipmentItems: 400,
      incidents: 2000,
      incidentEvents: expect.any(Number),
      incidentComments: expect.any(Number),
      users: 5,
    });
    expect(logs.some((m) => m.startsWith("incidents: 2000 / 2000"))).toBe(true);
    const e = result.entityId;

    const accounts = await query<{ email: string; role: number; password_hash: string }>(sql`
      select email, role, password_hash from users where entity_id = ${e} and email like 'scale-%' order by email`);
    expect(accounts.map((a) => a.email)).toEqual(
      expect.arrayContaining([SCALE_ACCOUNTS.admin, SCALE_ACCOUNTS.manager, SCALE_ACCOUNTS.technician]),
    );
    const scaleAdmin = accounts.find((a) => a.email === SCALE_ACCOUNTS.admin)!;
    expect(scaleAdmin.role).toBe(Role.ADMINISTRATOR);
    expect(await verifyPassword(scaleAdmin.password_hash, DEMO_PASSWORD)).toBe(true);

    const fixed = await one<Record<string, number>>(sql`
      select
        (select count(*)::int from room_types where entity_id = ${e}) as room_types,
        (select count(*)::int from equipment_categories where entity_id = ${e}) as categories,
        (select count(*)::int from equipment_types where entity_id = ${e}) as equipment_types,
        (select count(*)::int from incident_types where entity_id = ${e}) as incident_types`);
    expect(fixed).toEqual({ room_types: 20, categories: 20, equipment_types: 200, incident_types: 50 });

    const codes = await one<{ n: number; distinct_codes: number; rooms: number; items: number; bad: number }>(sql`
      select count(*)::int as n, count(distinct code)::int as distinct_codes,
        count(room_id)::int as rooms, count(equipment_item_id)::int as items,
        count(*) filter (where code !~ '^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{13}$')::int as bad
      from report_identifiers where entity_id = ${e}`);
    expect(codes).toEqual({ n: 500, distinct_codes: 500, rooms: 100, items: 400, bad: 0 });

    for (const [table, kind, count] of [
      ["incidents", "incident", 2000],
      ["rooms", "room", 100],
      ["buildings", "building", 2],
      ["facilities", "facility", 1],
    ] as const) {
      const ids = await one<{ min: number; max: number; n: number; counter: number }>(sql`
        select min(short_id)::int as min, max(short_id)::int as max, count(distinct short_id)::int as n,
          (select value from entity_counters where entity_id = ${e} and kind = ${kind}) as counter
        from ${sql.identifier(table)} where entity_id = ${e}`);
      expect(ids, table).toEqual({ min: 1, max: count, n: count, counter: count });
    }
    expect(await nextShortId(db, e, "incident")).toBe(2001);
    expect(await nextShortId(db, e, "room")).toBe(101);

    const spread = await one<{ statuses: number; unordered: number; no_event: number; days: number }>(sql`
      select count(distinct status)::int as statuses,
        (select count(*)::int from (
          select created_at < lag(created_at) over (order by short_id) as back
          from incidents where entity_id = ${e}) x where back) as unordered,
        (select count(*)::int from incidents i where i.entity_id = ${e} and not exists
          (select 1 from incident_events ev where ev.incident_id = i.id and ev.type = 0)) as no_event,
        extract(epoch from max(created_at) - min(created_at))::float8 / 86400 as days
      from incidents where entity_id = ${e}`);
    expect(spread).toMatchObject({ statuses: 5, unordered: 0, no_event: 0 });
    expect(spread.days).toBeGreaterThan(700);

    expect(await crossEntityReferences()).toEqual([]);
    // The set-based inserts end with the list counters computed once; the per-status totals follow by trigger.
    expect(await findCounterDrift(db, e)).toEqual([]);
    expect(await statusCountDrift(e)).toEqual([]);
  });

  it("gives the scale incidents events and comments in proportion, consistent with their state", async () => {
    const e = (await one<{ entity_id: number }>(sql`select entity_id from users where email = ${SCALE_ACCOUNTS.admin}`)).entity_id;
    const n = 2000;
    const busy = SCALE_BUSY_INCIDENT;
    const totals = await one<{ events: number; comments: number; edited: number; tagged: number; not_selected: number }>(sql`
      select
        (select count(*)::int from incident_events where entity_id = ${e}) as events,
        (select count(*)::int from incident_comments where entity_id = ${e}) as comments,
        (select count(*)::int from incident_comments where entity_id = ${e} and edited_at is not null) as edited,
        (select count(*)::int from incidents where entity_id = ${e} and cardinality(tags) > 0) as tagged,
        (select count(*)::int from incidents where entity_id = ${e} and priority is null) as not_selected`);
    // ≈3 events and ≈0.5 comments per incident, plus the busy incident's.
    expect(totals.events - busy.events).toBeGreaterThan(2.5 * n);
    expect(totals.events - busy.events).toBeLessThan(4 * n);
    expect(totals.comments - busy.comments).toBeGreaterThan(0.3 * n);
    expect(totals.comments - busy.comments).toBeLessThan(0.8 * n);
    expect(totals.edited).toBeGreaterThan(0);
    expect(totals.tagged).toBeGreaterThan(0.05 * n);
    expect(totals.not_selected).toBeGreaterThan(0.02 * n);

    const wrong = await one<{ created: number; status: number; pending_status: number; assigned: number; name: number; early: number }>(sql`
      select
        count(*) filter (where (select count(*) from incident_events v where v.incident_id = i.id and v.type = 0) <> 1)::int as created,
        count(*) filter (where i.status <> 0 and (select (v.new_value #>> '{}')::int from incident_events v
          where v.incident_id = i.id and v.type = ${IncidentEventType.STATUS_UPDATE}
          order by v.created_at desc, v.id desc limit 1) is distinct from i.status)::int as status,
        count(*) filter (where i.status = 0 and exists (select 1 from incident_events v
          where v.incident_id = i.id and v.type = ${IncidentEventType.STATUS_UPDATE}))::int as pending_status,
        count(*) filter (where (select (v.new_value ->> 'id')::int from incident_events v
          where v.incident_id = i.id and v.type = ${IncidentEventType.ASSIGNED}
          order by v.created_at desc, v.id desc limit 1) is distinct from i.assignee_id)::int as assigned,
        count(*) filter (where exists (select 1 from incident_events v join users u on u.id = (v.new_value ->> 'id')::int
          where v.incident_id = i.id and v.type = ${IncidentEventType.ASSIGNED}
            and v.new_value ->> 'name' <> u.name || ' ' || u.surname))::int as name,
        count(*) filter (where exists (select 1 from incident_events v where v.incident_id = i.id
          and (v.created_at < i.created_at or v.created_at > i.updated_at))
          or exists (select 1 from incident_comments c where c.incident_id = i.id
          and (c.created_at < i.created_at or c.created_at > i.updated_at)))::int as early
      from incidents i where i.entity_id = ${e}`);
    expect(wrong).toEqual({ created: 0, status: 0, pending_status: 0, assigned: 0, name: 0, early: 0 });

    const newest = await one<{ comments: number; events: number; tags: string[] }>(sql`
      select (select count(*)::int from incident_comments c where c.incident_id = i.id) as comments,
        (select count(*)::int from incident_events v where v.incident_id = i.id) as events, tags
      from incidents i where i.entity_id = ${e} order by short_id desc limit 1`);
    expect(newest.comments).toBe(busy.comments);
    expect(newest.events).toBeGreaterThanOrEqual(busy.events);
    expect(newest.events).toBeLessThanOrEqual(busy.events + 1);
    expect(newest.tags.length).toBeLessThanOrEqual(2);
  });

  it("does nothing when the scale accounts exist", async () => {
    const before = await tableCounts();
    const result = await seedScale(db, 0.002);
    expect(result.created).toBe(false);
    expect(await tableCounts()).toEqual(before);
  });
});
