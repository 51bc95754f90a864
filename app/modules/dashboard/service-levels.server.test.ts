import { beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus } from "~/db/enums";
import { serviceLevelTargets, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import { createBuilding, createFacility, createIncident, createRoom, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import type { DashboardFilters } from "./filters";
import { getServiceLevelFigures, type ServiceLevelFigures } from "./service-levels.server";

/**
 * The dashboard's service levels over incidents whose clock columns are written by hand (entity in
 * Europe/Brussels, period January to March 2026). Response target 60 min, resolution 480 min (working).
 *
 * Facility Alpha, January:
 *  a1 response met in 10,  resolution met in 100
 *  a2 response met in 20,  resolution missed (600)
 *  a3 response missed (90), resolution met in 300
 *  a4 response met in 40,  no resolution target
 *  a5 open, both due 2026-01-20 (past: both missed, no time)
 *  a6 open, both due 2099 (no outcome yet: not counted)
 *  a7 rejected, both clocks stopped unmet at 30 (no outcome: not counted)
 *  (and one without targets, one archived with outcomes: never counted)
 * Facility Beta, January:
 *  b1 response met in 5, resolution met in 200
 *  b2 response missed (70), no resolution target
 * Facility Alpha, February:
 *  a8 created 2026-01-31 23:30 UTC (1 February in Brussels): response met in 15, resolution met in 45
 * Plus an April incident (outside the period) and one of another entity in January, never counted.
 */
const database = setupTestDatabase();
const people = setupTwoEntities(database);
let alpha: number;
let beta: number;
let otherFacility: number;

const period: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: "2026-01-01", to: "2026-03-31" };
const ctxOf = (user: User) => actorContext(database.db, user);
const at = (iso: string) => new Date(iso);

const response = (met: boolean, elapsed: number) => ({
  responseTargetMinutes: 60,
  responseClock: "working" as const,
  responseElapsedMinutes: elapsed,
  respondedAt: at("2026-01-25T10:00Z"),
  responseMet: met,
});
const resolution = (met: boolean, elapsed: number) => ({
  resolutionTargetMinutes: 480,
  resolutionClock: "working" as const,
  resolutionElapsedMinutes: elapsed,
  resolvedAt: at("2026-01-26T10:00Z"),
  resolutionMet: met,
});
const running = (due: string) => ({
  responseTargetMinutes: 60,
  responseClock: "working" as const,
  responseDueAt: at(due),
  responseElapsedMinutes: 0,
  resolutionTargetMinutes: 480,
  resolutionClock: "working" as const,
  resolutionDueAt: at(due),
  resolutionElapsedMinutes: 0,
});
const stopped = (elapsed: number) => ({
  responseTargetMinutes: 60,
  responseClock: "working" as const,
  responseElapsedMinutes: elapsed,
  resolutionTargetMinutes: 480,
  resolutionClock: "working" as const,
  resolutionElapsedMinutes: elapsed,
});

beforeAll(async () => {
  const db = database.db;
  alpha = (await createFacility(db, { entityId: people.entity.id, name: "Alpha" })).id;
  beta = (await createFacility(db, { entityId: people.entity.id, name: "Beta" })).id;
  const buildingA = await createBuilding(db, { entityId: people.entity.id, facilityId: alpha });
  const buildingB = await createBuilding(db, { entityId: people.entity.id, facilityId: beta });
  const roomA = (await createRoom(db, { entityId: people.entity.id, buildingId: buildingA.id })).id;
  const roomB = (await createRoom(db, { entityId: people.entity.id, buildingId: buildingB.id })).id;
  await linkUserTo(db, { entityId: people.entity.id, userId: people.manager.id, facilityId: alpha });
  const e = people.entity.id;
  const jan = at("2026-01-12T09:00Z");
  const specs: Parameters<typeof createIncident>[1][] = [
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.DONE, ...response(true, 10), ...resolution(true, 100) },
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.DONE, ...response(true, 20), ...resolution(false, 600) },
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.DONE, ...response(false, 90), ...resolution(true, 300) },
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.IN_PROGRESS, ...response(true, 40) },
    { entityId: e, roomId: roomA, createdAt: jan, ...running("2026-01-20T09:00Z") },
    { entityId: e, roomId: roomA, createdAt: jan, ...running("2099-01-01T00:00Z") },
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.REJECTED, ...stopped(30) },
    { entityId: e, roomId: roomA, createdAt: jan },
    { entityId: e, roomId: roomA, createdAt: jan, status: IncidentStatus.DONE, archivedAt: at("2026-02-01T00:00Z"), ...response(false, 500), ...resolution(false, 900) },
    { entityId: e, roomId: roomB, createdAt: jan, status: IncidentStatus.DONE, ...response(true, 5), ...resolution(true, 200) },
    { entityId: e, roomId: roomB, createdAt: jan, status: IncidentStatus.IN_PROGRESS, ...response(false, 70) },
    { entityId: e, roomId: roomA, createdAt: at("2026-01-31T23:30Z"), status: IncidentStatus.DONE, ...response(true, 15), ...resolution(true, 45) },
    { entityId: e, roomId: roomA, createdAt: at("2026-04-02T09:00Z"), status: IncidentStatus.DONE, ...response(false, 999), ...resolution(false, 999) },
  ];
  for (const spec of specs) await createIncident(db, spec);
  const otherBuilding = await createBuilding(db, { entityId: people.other.id });
  otherFacility = otherBuilding.facilityId;
  const otherRoom = (await createRoom(db, { entityId: people.other.id, buildingId: otherBuilding.id })).id;
  await createIncident(db, { entityId: people.other.id, roomId: otherRoom, createdAt: jan, status: IncidentStatus.DONE, ...response(false, 1000), ...resolution(false, 2000) });
  await db.insert(serviceLevelTargets).values({ entityId: people.entity.id, priority: null, responseMinutes: 60, resolutionMinutes: 480 });
});

/** A row as [scope, month, facility, response: counted, met, share, median, p90, resolution: the same]. */
const table = (figures: ServiceLevelFigures) =>
  figures.rows.map((r) => [
    r.scope,
    r.month,
    r.facilityName,
    r.response.counted,
    r.response.met,
    r.response.share,
    r.response.medianMinutes,
    r.response.p90Minutes,
    r.resolution.counted,
    r.resolution.met,
    r.resolution.share,
    r.resolution.medianMinutes,
    r.resolution.p90Minutes,
  ]);

// Alpha in January. Response: 5 counted (a1–a5), 3 met; times 10, 20, 40, 90: median (20 + 40) / 2 = 30,
// p90 at rank 0.9 × 3 = 2.7: 40 + 0.7 × 50 = 75. Resolution: 4 counted (a1, a2, a3, a5), 2 met; times
// 100, 300, 600: median 300, p90 at 1.8: 300 + 0.8 × 300 = 540.
const alphaJanuary = ["facility", "2026-01", "Alpha", 5, 3, 0.6, 30, 75, 4, 2, 0.5, 300, 540];
// Alpha in February (a8 alone).
const alphaFebruary = ["facility", "2026-02", "Alpha", 1, 1, 1, 15, 15, 1, 1, 1, 45, 45];

describe(`dashboard service levels (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("gives an administrator each month's facilities, the month over all of them and the period", async () => {
    const figures = await getServiceLevelFigures(ctxOf(people.admin), period);
    expect(figures.hasTargets).toBe(true);
    expect(figures.canSetTargets).toBe(true);
    expect(table(figures)).toEqual([
      // January over both: response 7 counted, 4 met; times 5, 10, 20, 40, 70, 90: median 30, p90 at 4.5:
      // 70 + 0.5 × 20 = 80. Resolution 5 counted, 3 met; times 100, 200, 300, 600: median 250, p90 at
      // 2.7: 300 + 0.7 × 300 = 510.
      ["month", "2026-01", null, 7, 4, 4 / 7, 30, 80, 5, 3, 0.6, 250, 510],
      alphaJanuary,
      // Beta in January. Response 2 counted, 1 met; times 5, 70: median 37.5, p90 at 0.9: 5 + 0.9 × 65 = 63.5.
      ["facility", "2026-01", "Beta", 2, 1, 0.5, 37.5, 63.5, 1, 1, 1, 200, 200],
      ["month", "2026-02", null, 1, 1, 1, 15, 15, 1, 1, 1, 45, 45],
      alphaFebruary,
      // The period. Response 8 counted, 5 met; times 5, 10, 15, 20, 40, 70, 90: median 20, p90 at 5.4:
      // 70 + 0.4 × 20 = 78. Resolution 6 counted, 4 met; times 45, 100, 200, 300, 600: median 200, p90 at
      // 3.6: 300 + 0.6 × 300 = 480.
      ["period", null, null, 8, 5, 5 / 8, 20, 78, 6, 4, 4 / 6, 200, 480],
    ]);
    expect(figures.rows.filter((r) => r.scope === "facility").map((r) => r.facilityId)).toEqual([alpha, beta, alpha]);
  });

  it("keeps to the filters: a facility, a shorter period", async () => {
    const b = await getServiceLevelFigures(ctxOf(people.admin), { ...period, facilityId: beta });
    expect(table(b).map((r) => r.slice(0, 8))).toEqual([
      ["month", "2026-01", null, 2, 1, 0.5, 37.5, 63.5],
      ["facility", "2026-01", "Beta", 2, 1, 0.5, 37.5, 63.5],
      ["period", null, null, 2, 1, 0.5, 37.5, 63.5],
    ]);
    const february = await getServiceLevelFigures(ctxOf(people.admin), { ...period, from: "2026-02-01", to: "2026-02-28" });
    expect(table(february)).toEqual([["month", "2026-02", null, 1, 1, 1, 15, 15, 1, 1, 1, 45, 45], alphaFebruary, ["period", null, null, 1, 1, 1, 15, 15, 1, 1, 1, 45, 45]]);
  });

  it("shows a manager linked to one facility only that facility's incidents", async () => {
    const figures = await getServiceLevelFigures(ctxOf(people.manager), period);
    expect(figures.canSetTargets).toBe(false);
    expect(table(figures)).toEqual([
      ["month", "2026-01", null, ...alphaJanuary.slice(3)],
      alphaJanuary,
      ["month", "2026-02", null, ...alphaFebruary.slice(3)],
      alphaFebruary,
      // Alpha's period: response 6 counted, 4 met; times 10, 15, 20, 40, 90: median 20, p90 at 3.6:
      // 40 + 0.6 × 50 = 70. Resolution 5 counted, 3 met; times 45, 100, 300, 600: median 200, p90 at
      // 2.7: 300 + 0.7 × 300 = 510.
      ["period", null, null, 6, 4, 4 / 6, 20, 70, 5, 3, 0.6, 200, 510],
    ]);
    expect(await rejectionOf(getServiceLevelFigures(ctxOf(people.manager), { ...period, facilityId: beta }))).toBeInstanceOf(NotFoundError);
  });

  it("never counts another entity's incidents, and refuses its facility and a technician", async () => {
    const mine = await getServiceLevelFigures(ctxOf(people.otherAdmin), period);
    // The other entity has clocks on its incident but no targets set.
    expect(mine.hasTargets).toBe(false);
    expect(table(mine)).toEqual([
      ["month", "2026-01", null, 1, 0, 0, 1000, 1000, 1, 0, 0, 2000, 2000],
      ["facility", "2026-01", expect.any(String), 1, 0, 0, 1000, 1000, 1, 0, 0, 2000, 2000],
      ["period", null, null, 1, 0, 0, 1000, 1000, 1, 0, 0, 2000, 2000],
    ]);
    expect(await rejectionOf(getServiceLevelFigures(ctxOf(people.admin), { ...period, facilityId: otherFacility }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getServiceLevelFigures(ctxOf(people.technician), period))).toBeInstanceOf(ForbiddenError);
  });

  it("answers no rows for a period without incidents that have a target", async () => {
    const figures = await getServiceLevelFigures(ctxOf(people.admin), { ...period, from: "2025-06-01", to: "2025-06-30" });
    expect(figures.rows).toEqual([]);
    expect(figures.hasTargets).toBe(true);
  });
});
