/**
 * Incidents benchmark (issue #12, "Speed"): the production build against a PostgreSQL database holding
 * the scale seed (`npm run seed -- --scale N`), started with SERVER_TIMING=1, signed in as the scale
 * entity's administrator (and technician). It times the incidents table (first page, a filtered page,
 * sorted by priority, the last page), the kanban board and each of its columns, the incident view of an
 * incident with 200 comments and 500 events (made here with the factories the first time, kept for
 * later runs), and the work order PDF; on the screens and on the REST calls that run the same queries.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run seed -- --scale 1
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_scale npm run bench:incidents
 *
 * Per URL: BENCH_REQUESTS sequential requests (default 20) after 3 warm-up requests give the server time
 * (Server-Timing `app`, until the head of the answer, which is the whole work: pages are rendered into
 * one buffer) and the SQL time of the same requests (Server-Timing `db`, the sum of the request's
 * query durations), p50 and p95; then BENCH_CONCURRENCY clients (default 20) for BENCH_SECONDS
 * (default 5): requests per second, p95 of the whole answer, of the server time and of the SQL time;
 * then the same clients each waiting about BENCH_THINK_MS (default 1000; 0 skips it) between requests
 * for BENCH_PACED_SECONDS (default 8): twenty people at work rather than a queue (bench/lib/scale.ts).
 * BENCH_ONLY=<text> runs the URLs whose name contains it; BENCH_JSON=<file> also writes the figures.
 * Targets (issue #12): table pages and board columns p95 <= 60 ms and <= 3x their SQL; the incident
 * view p95 <= 80 ms; the PDF <= 300 ms.
 */
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, Priority, Role } from "~/db/enums";
import { incidents, incidentTypes, reportIdentifiers, rooms, users } from "~/db/schema";
import { createIncident, createIncidentComment, createIncidentEvent } from "~/seed/factories";
import { machineLine, measuredTable, measureScenarios, pacedLine, runBench, type Scenario, startScaleServer, writeJsonResults } from "./lib/scale";

const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const only = process.env.BENCH_ONLY ?? "";
const databaseUrl = process.env.DATABASE_URL;

const ADMIN = "scale-admin@demo.test";
const TECHNICIAN = "scale-tech@demo.test";
const HEAVY_TITLE = "Bench: an incident with 200 comments and 500 events";
const COMMENTS = 200;
const EVENTS = 500;

/** The scale entity's incident with 200 comments and 500 events: found, or made with the factories. */
async function heavyIncident(url: string): Promise<{ id: number; entityId: number; made: boolean }> {
  const database = await openDatabase({ url, poolMax: 2 });
  try {
    const db = database.db;
    const [admin] = await db.select({ id: users.id, entityId: users.entityId }).from(users).where(eq(users.email, ADMIN));
    if (!admin) throw new Error(`${ADMIN} does not exist: load the scale seed first (npm run seed -- --scale 1)`);
    const entityId = admin.entityId;
    const [found] = await db
      .select({ id: incidents.id })
      .from(incidents)
      .where(and(eq(incidents.entityId, entityId), eq(incidents.title, HEAVY_TITLE)));
    if (found) return { id: found.id, entityId, made: false };

    const [room] = await db
      .select({ id: rooms.id })
      .from(rooms)
      .innerJoin(reportIdentifiers, and(eq(reportIdentifiers.roomId, rooms.id), eq(reportIdentifiers.entityId, entityId)))
      .where(eq(rooms.entityId, entityId))
      .orderBy(asc(rooms.id))
      .limit(1);
    const [type] = await db.select({ id: incidentTypes.id }).from(incidentTypes).where(eq(incidentTypes.entityId, entityId)).orderBy(asc(incidentTypes.id)).limit(1);
    const people = await db
      .select({ id: users.id, name: users.name, surname: users.surname })
      .from(users)
      .where(and(eq(users.entityId, entityId), isNotNull(users.passwordHash)))
      .orderBy(asc(users.id))
      .limit(20);
    const technicians = await db.select({ id: users.id }).from(users).where(and(eq(users.entityId, entityId), eq(users.role, Role.TECHNICIAN))).limit(1);
    const started = new Date(Date.now() - 90 * 24 * 3600_000);
    const incident = await createIncident(db, {
      entityId,
      roomId: room?.id ?? null,
      incidentTypeId: type?.id ?? null,
      title: HEAVY_TITLE,
      description: "Water comes through the ceiling of the meeting room after every heavy rain. ".repeat(8).trim(),
      priority: Priority.HIGH,
      status: IncidentStatus.IN_PROGRESS,
      assigneeId: technicians[0]?.id ?? null,
      tags: ["roof", "water"],
      occurrences: 14,
      createdAt: started,
      reporterEmails: ["occupier-1@example.test", "occupier-2@example.test"],
    });
    const at = (i: number, n: number) => new Date(started.getTime() + ((i + 1) * 89 * 24 * 3600_000) / n);
    for (let i = 0; i < COMMENTS; i++) {
      const author = people[i % people.length];
      await createIncidentComment(db, {
        entityId,
        incidentId: incident.id,
        authorId: author.id,
        body: `Visit ${i + 1}: checked the gutter and the flashing above the window; ${i % 3 === 0 ? "replaced a cracked tile." : "no new leak found, the bucket stays."}`,
        createdAt: at(i, COMMENTS),
      });
    }
    const name = (p: (typeof people)[number]) => `${p.name} ${p.surname}`.trim();
    for (let i = 0; i < EVENTS; i++) {
      const actor = people[i % people.length];
      const next = people[(i + 1) % people.length];
      const kind = i % 5;
      const event =
        kind === 0
          ? { type: IncidentEventType.STATUS_UPDATE, oldValue: i % 2, newValue: (i + 1) % 2 }
          : kind === 1
            ? { type: IncidentEventType.PRIORITY_UPDATE, oldValue: i % 4, newValue: (i + 1) % 4 }
            : kind === 2
              ? { type: IncidentEventType.ASSIGNED, oldValue: { id: actor.id, name: name(actor) }, newValue: { id: next.id, name: name(next) } }
              : kind === 3
                ? { type: IncidentEventType.ADD_TAG, oldValue: null, newValue: `tag-${i % 7}` }
                : { type: IncidentEventType.TITLE_UPDATE, oldValue: HEAVY_TITLE, newValue: HEAVY_TITLE };
      await createIncidentEvent(db, { entityId, incidentId: incident.id, actorId: actor.id, createdAt: at(i, EVENTS), ...event });
    }
    await db.execute(sql`analyze incident_comments`);
    await db.execute(sql`analyze incident_events`);
    return { id: incident.id, entityId, made: true };
  } finally {
    await database.close();
  }
}

async function main() {
  if (!databaseUrl) throw new Error("set DATABASE_URL to the database holding the scale seed");
  const heavy = await heavyIncident(databaseUrl);
  process.stderr.write(`incident ${heavy.id}: 200 comments and 500 events${heavy.made ? " (made now)" : ""}\n`);
  const server = await startScaleServer(databaseUrl);
  try {
    const { base } = server;
    const cookie = { cookie: await server.signIn(ADMIN) };
    const techCookie = { cookie: await server.signIn(TECHNICIAN) };
    const bearer = await server.bearer(ADMIN);
    const techBearer = await server.bearer(TECHNICIAN);
    const totalOf = async (url: string, headers: Record<string, string>) => {
      const res = await fetch(`${base}${url}`, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return Number(res.headers.get("x-total-count") ?? 0);
    };
    const total = await totalOf("/api/incidents?size=1", bearer);
    const lastPage = Math.max(1, Math.ceil(total / 25));
    const techTotal = await totalOf("/api/incidents?size=1", techBearer);
    const i = heavy.id;
    const columns = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED];

    const scenarios: Scenario[] = [
      ["/incidents (first page)", "/incidents", cookie],
      ["/incidents?status=0&priority=2", "/incidents?status=0&priority=2", cookie],
      ["/incidents sorted by priority", "/incidents?sort=priority&dir=desc", cookie],
      [`/incidents last page (${lastPage})`, `/incidents?page=${lastPage}`, cookie],
      ["/incidents (technician)", "/incidents", techCookie],
      ["/incidents?view=board", "/incidents?view=board", cookie],
      ...columns.map((s): [string, string, Record<string, string>] => [`board column ${s}`, `/incidents?view=board&status=${s}`, cookie]),
      ["/incident/{id} (200 comments, 500 events)", `/incident/${i}`, cookie],
      ["/incident/{id}/work-order.pdf", `/incident/${i}/work-order.pdf`, cookie],
      ["GET /api/incidents", "/api/incidents", bearer],
      ["GET /api/incidents?status=0&priority=2", "/api/incidents?status=0&priority=2", bearer],
      ["GET /api/incidents?sort=priority&dir=desc", "/api/incidents?sort=priority&dir=desc", bearer],
      [`GET /api/incidents?page=${lastPage} (last)`, `/api/incidents?page=${lastPage}`, bearer],
      ["GET /api/incidents?sort=assignee", "/api/incidents?sort=assignee", bearer],
      ['GET /api/incidents?q=leak (search)', "/api/incidents?q=leak", bearer],
      ...columns.map((s): [string, string, Record<string, string>] => [`GET /api/incidents?status=${s}&size=20 (a column's first page)`, `/api/incidents?status=${s}&size=20`, bearer]),
      [`GET /api/incidents (technician, ${techTotal} in reach)`, "/api/incidents", techBearer],
      ["GET /api/incidents?status=0&priority=2 (technician)", "/api/incidents?status=0&priority=2", techBearer],
      ["GET /api/incidents/{id}", `/api/incidents/${i}`, bearer],
      ["GET /api/incidents/{id}/comments (50 of 200)", `/api/incidents/${i}/comments`, bearer],
      ["GET /api/incidents/{id}/events (100 of 501)", `/api/incidents/${i}/events`, bearer],
      ["GET /api/incidents/{id}/work-order (PDF)", `/api/incidents/${i}/work-order`, bearer],
    ];
    const results = await measureScenarios(base, scenarios, { requests, concurrency, seconds, only });
    console.log(`${machineLine()}; PostgreSQL at ${new URL(databaseUrl).host}`);
    console.log(`Data: scale seed, ${total} incidents listed for ${ADMIN} (Archived left out), ${techTotal} for ${TECHNICIAN}; incident ${i} has ${COMMENTS} comments and ${EVENTS + 1} events.`);
    console.log(`${requests} sequential requests per URL after 3 warm-up requests, then ${concurrency} clients for ${seconds} s${pacedLine(concurrency)}.\n`);
    console.log(measuredTable(results, concurrency, { ratio: true }));
    writeJsonResults(results);
  } finally {
    await server.stop();
  }
}

runBench(main);
