import { describe, expect, it } from "vitest";
import { getT } from "~/i18n.server";
import type { CostFigures, DashboardCosts } from "~/modules/dashboard/costs.server";
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
      "Service levels: response,Month – facility,Incidents with an outcome,Share met,Median (minutes),90th percentile (minutes),",
      "Service levels: response,2026-01 – All facilities,3,0.6667,30,75.5,",
      'Service levels: response,"2026-01 – Alpha, north",3,0.6667,30,75.5,',
      "Service levels: response,Whole period – All facilities,3,0.6667,30,75.5,",
      "Service levels: resolution,Month – facility,Incidents with an outcome,Share met,Median (minutes),90th percentile (minutes),",
      "Service levels: resolution,2026-01 – All facilities,0,,,,",
      'Service levels: resolution,"2026-01 – Alpha, north",0,,,,',
      "Service levels: resolution,Whole period – All facilities,0,,,,",
    ]);
  });

  it("writes them in the page's language, and nothing when there are none", () => {
    const csv = lines(dashboardCsv(figures, getT("nl-BE"), levels));
    expect(csv).toContain("Serviceniveaus: reactie,Maand – site,Incidenten met een uitkomst,Aandeel gehaald,Mediaan (minuten),90e percentiel (minuten),");
    expect(csv).toContain("Serviceniveaus: reactie,Hele periode – Alle sites,3,0.6667,30,75.5,");
    const empty = dashboardCsv(figures, getT("en"), {
      hasTargets: false,
      canSetTargets: true,
      rows: [],
    });
    expect(empty).not.toContain("Service levels");
    expect(empty).toBe(dashboardCsv(figures, getT("en")));
  });
});

const cost = (minutes: number, labour: string, materials: string, total: string, unpricedEntries = 0): CostFigures => ({ minutes, labour, materials, total, unpricedEntries, entries: 1, lines: 1 });

const costs: DashboardCosts = {
  currency: "EUR",
  period: figures.period,
  total: cost(100, "60.00", "9.98", "69.98", 1),
  months: [{ month: "2026-01", ...cost(100, "60.00", "9.98", "69.98", 1) }],
  facilities: [
    { id: 4, name: "Alpha, north", ...cost(90, "60.00", "9.98", "69.98") },
    { id: null, name: null, ...cost(10, "0.00", "0.00", "0.00", 1) },
  ],
  buildings: [{ id: 5, name: "A1", facilityName: "Alpha, north", ...cost(90, "60.00", "9.98", "69.98") }],
  types: [
    { kind: "type", id: 3, name: "Leak", ...cost(60, "40.00", "9.98", "49.98") },
    { kind: "maintenance", id: null, name: null, ...cost(30, "20.00", "0.00", "20.00") },
    { kind: "none", id: null, name: null, ...cost(10, "0.00", "0.00", "0.00", 1) },
  ],
  rooms: [{ id: 6, name: "Kitchen", buildingName: "A1", ...cost(90, "60.00", "9.98", "69.98") }],
  equipment: [{ id: 7, equipmentName: "Boiler", internalReference: "EQ-1", roomName: "Kitchen", ...cost(60, "40.00", "9.98", "49.98") }],
};

describe("the dashboard CSV's time and costs", () => {
  it("adds per part a header naming the currency and a line per row: hours, labour, material, total, unpriced entries", () => {
    const csv = lines(dashboardCsv(figures, getT("en"), undefined, costs));
    expect(csv[0]).toBe("Section,Item,Value 1,Value 2,Value 3,Value 4,Value 5");
    expect(csv.filter((line) => line.startsWith("Cost"))).toEqual([
      "Costs per month,Month,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      "Costs per month,2026-01,1.67,60.00,9.98,69.98,1",
      "Costs per month,Whole period,1.67,60.00,9.98,69.98,1",
      "Costs per facility,Facility,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      'Costs per facility,"Alpha, north",1.5,60.00,9.98,69.98,0',
      "Costs per facility,No room,0.17,0.00,0.00,0.00,1",
      "Costs per building,Building,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      'Costs per building,"A1 – Alpha, north",1.5,60.00,9.98,69.98,0',
      "Costs per incident type,Incident type,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      "Costs per incident type,Leak,1,40.00,9.98,49.98,0",
      "Costs per incident type,Planned maintenance,0.5,20.00,0.00,20.00,0",
      "Costs per incident type,No type,0.17,0.00,0.00,0.00,1",
      "Costliest rooms,Room,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      "Costliest rooms,Kitchen – A1,1.5,60.00,9.98,69.98,0",
      "Costliest equipment,Equipment,Hours,Labour (EUR),Material (EUR),Total (EUR),Unpriced entries",
      "Costliest equipment,Boiler · EQ-1 – Kitchen,1,40.00,9.98,49.98,0",
    ]);
  });

  it("writes them in the page's language", () => {
    const csv = lines(dashboardCsv(figures, getT("fr-BE"), undefined, costs));
    expect(csv).toContain("Coûts par type d'incident,Maintenance planifiée,0.5,20.00,0.00,20.00,0");
    expect(csv).toContain("Coûts par mois,Mois,Heures,Main-d'œuvre (EUR),Matériel (EUR),Total (EUR),Encodages sans tarif");
  });
});
