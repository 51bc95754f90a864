import { describe, expect, it } from "vitest";
import { getT } from "~/i18n.server";
import type { DashboardFigures } from "~/modules/dashboard/queries.server";
import type { ServiceLevelFigures } from "~/modules/dashboard/service-levels.server";
import { dashboardCsv } from "./dashboard.server";

const figures: DashboardFigures = {
  timeZone: "Europe/Brussels",
  period: { from: "2026-01-01", to: "2026-01-31", custom: true },
  filters: {
    facilityId: null,
    buildingId: null,
    incidentTypeId: null,
    from: "2026-01-01",
    to: "2026-01-31",
  },
  fromCounters: false,
  total: 0,
  months: [],
  types: [],
  typeCount: 0,
  assignees: [],
  handling: { done: 0, averageHours: null },
  handlingByPriority: [],
  byStatus: [],
  byPriority: [],
};

const levels: ServiceLevelFigures = {
  hasTargets: true,
  canSetTargets: true,
  rows: [
    {
      scope: "month",
      month: "2026-01",
      facilityId: null,
      facilityName: null,
      response: {
        counted: 3,
        met: 2,
        share: 2 / 3,
        medianMinutes: 30,
        p90Minutes: 75.5,
      },
      resolution: {
        counted: 0,
        met: 0,
        share: null,
        medianMinutes: null,
        p90Minutes: null,
      },
    },
    {
      scope: "facility",
      month: "2026-01",
      facilityId: 4,
      facilityName: "Alpha, north",
      response: {
        counted: 3,
        met: 2,
        share: 2 / 3,
        medianMinutes: 30,
        p90Minutes: 75.5,
      },
      resolution: {
        counted: 0,
        met: 0,
        share: null,
        medianMinutes: null,
        p90Minutes: null,
      },
    },
    {
      scope: "period",
      month: null,
      facilityId: null,
      facilityName: null,
      response: {
        counted: 3,
        met: 2,
        share: 2 / 3,
        medianMinutes: 30,
        p90Minutes: 75.5,
      },
      resolution: {
        counted: 0,
        met: 0,
        share: null,
        medianMinutes: null,
        p90Minutes: null,
      },
    },
  ],
};

const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");

describe("the dashboard CSV's service levels", () => {
  it("adds per target a header and a line per month, facility and the period, in clock minutes", () => {
    const csv = lines(dashboardCsv(figures, getT("en"), levels));
    expect(csv.filter((line) => line.startsWith("Service levels"))).toEqual([
      "Service levels: response,Month – facility,Incidents with an outcome,Share met,Median (minutes),90th percentile (minutes)",
      "Service levels: response,2026-01 – All facilities,3,0.6667,30,75.5",
      'Service levels: response,"2026-01 – Alpha, north",3,0.6667,30,75.5',
      "Service levels: response,Whole period – All facilities,3,0.6667,30,75.5",
      "Service levels: resolution,Month – facility,Incidents with an outcome,Share met,Median (minutes),90th percentile (minutes)",
      "Service levels: resolution,2026-01 – All facilities,0,,,",
      'Service levels: resolution,"2026-01 – Alpha, north",0,,,',
      "Service levels: resolution,Whole period – All facilities,0,,,",
    ]);
  });

  it("writes them in the page's language, and nothing when there are none", () => {
    const csv = lines(dashboardCsv(figures, getT("nl-BE"), levels));
    expect(csv).toContain("Serviceniveaus: reactie,Maand – site,Incidenten met een uitkomst,Aandeel gehaald,Mediaan (minuten),90e percentiel (minuten)");
    expect(csv).toContain("Serviceniveaus: reactie,Hele periode – Alle sites,3,0.6667,30,75.5");
    const empty = dashboardCsv(figures, getT("en"), {
      hasTargets: false,
      canSetTargets: true,
      rows: [],
    });
    expect(empty).not.toContain("Service levels");
    expect(empty).toBe(dashboardCsv(figures, getT("en")));
  });
});
