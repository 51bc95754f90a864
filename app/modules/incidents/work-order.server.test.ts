import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, Priority, Role } from "~/db/enums";
import { entities, type Entity, type Incident, incidentChecklistAnswers, incidents, type IncidentType, materialLines, timeEntries, type User } from "~/db/schema";
import { eq } from "drizzle-orm";
import { NotFoundError } from "~/lib/errors";
import { storeFile } from "~/modules/files/storage.server";
import { createBuilding, createEntity, createEquipmentItem, createFacility, createIncident, createIncidentComment, createIncidentType, createRoom, createUser, linkUserTo, pngBytes } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { pdfText, renderWorkOrder, workOrder } from "./work-order.server";

/**
 * The printed work order (issue #12 part 4): a PDF of a demo-like incident, its text read back with
 * pdftotext (poppler-utils) when the machine has it.
 */
let database: Database;
let services: TestServices;
let entity: Entity;
let other: Entity;
let admin: User;
let technician: User;
let outsider: User;
let otherAdmin: User;
let incident: Incident;
let longIncident: Incident;
let itemCode: string;
let type: IncidentType;

const hasPdftotext = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** The text of the PDF (pdftotext, reading order), whitespace collapsed. */
function textOf(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "work-order-"));
  try {
    const file = path.join(dir, "w.pdf");
    fs.writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"]).toString("utf8").replace(/\s+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pagesOf(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type \/Page\b/g) ?? []).length;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entity = await createEntity(db, { name: "Gemeente Zonnedorp", templateColor: "#0f766e", templateTextColor: "#ffffff" });
  other = await createEntity(db, { name: "Other" });
  const logo = await storeFile(services.ctx(entity.id, null), services.files, { bytes: pngBytes(64, 64), originalName: "logo.png", kind: "logo" });
  await db.update(entities).set({ logoFileId: logo.id }).where(eq(entities.id, entity.id));

  const facility = await createFacility(db, { entityId: entity.id, name: "Campus Noord" });
  const building = await createBuilding(db, { entityId: entity.id, facilityId: facility.id, name: "Blok B" });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id, name: "Vergaderzaal 2.14", floor: "2" });
  const item = await createEquipmentItem(db, { entityId: entity.id, roomId: room.id, internalReference: "PROJ-0042" });
  // The item's QR code (an incident on an item is reported through the item's code).
  itemCode = item.reportCode!;
  const elsewhere = await createRoom(db, { entityId: entity.id, name: "Kelder" });

  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Admin" });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Technicus" });
  outsider = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Olga", surname: "Outside" });
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  await linkUserTo(db, { entityId: entity.id, userId: technician.id, facilityId: facility.id });
  await linkUserTo(db, { entityId: entity.id, userId: outsider.id, buildingId: (await createBuilding(db, { entityId: entity.id })).id });
  void elsewhere;

  type = await createIncidentType(db, {
    entityId: entity.id,
    nameEn: "Projector broken",
    nameNl: "Projector defect",
    nameFr: "Projecteur en panne",
    checklist: [{ question: "Is de stekker ingeplugd?" }, { question: "Brandt het lampje op de projector?" }],
  });
  incident = await createIncident(db, {
    entityId: entity.id,
    roomId: room.id,
    equipmentItemId: item.id,
    incidentTypeId: type.id,
    title: "Projector geeft geen beeld",
    description: "De projector in zaal 2.14 start op maar toont geen beeld. Getest met twee laptops — “HDMI”, geen signaal.",
    priority: Priority.HIGH,
    status: IncidentStatus.IN_PROGRESS,
    assigneeId: technician.id,
    tags: ["audiovisueel", "dringend"],
    occurrences: 3,
    createdAt: new Date("2026-11-20T08:15:00Z"),
    lastOccurrenceAt: new Date("2026-11-22T13:40:00Z"),
    reporterEmails: ["leraar@school.test", "directie@school.test"],
  });
  // Two reports, each with its answers (a yes/no question, stored as "yes"/"no").
  await db.insert(incidentChecklistAnswers).values([
    { entityId: entity.id, incidentId: incident.id, position: 0, question: "Is de stekker ingeplugd?", contentType: 0, answer: "yes", createdAt: new Date("2026-11-20T08:15:00Z") },
    { entityId: entity.id, incidentId: incident.id, position: 1, question: "Brandt het lampje op de projector?", contentType: 0, answer: "no", createdAt: new Date("2026-11-20T08:15:00Z") },
    { entityId: entity.id, incidentId: incident.id, position: 0, question: "Is de stekker ingeplugd?", contentType: 0, answer: "no", createdAt: new Date("2026-11-22T13:40:00Z") },
  ]);
  for (let i = 1; i <= 7; i++) {
    await createIncidentComment(db, {
      entityId: entity.id,
      incidentId: incident.id,
      authorId: technician.id,
      body: `Opmerking ${i}: kabel nagekeken 🙂`,
      createdAt: new Date(Date.UTC(2026, 10, 21, 8 + i)),
    });
  }
  // Time and material: Tom 90 min at 40.00 = 60.00, Ada 30 min without a rate; 2.5 × 12.40 = 31.00.
  // Labour 60.00 (partial, 1 entry), materials 31.00, total 91.00; 2 h in all.
  await db.insert(timeEntries).values([
    { entityId: entity.id, incidentId: incident.id, userId: technician.id, workedOn: "2026-11-21", minutes: 90, hourlyRate: "40.00", createdById: technician.id },
    { entityId: entity.id, incidentId: incident.id, userId: admin.id, workedOn: "2026-11-22", minutes: 30, hourlyRate: null, createdById: admin.id },
  ]);
  await db.insert(materialLines).values({ entityId: entity.id, incidentId: incident.id, description: "HDMI-kabel", quantity: "2.500", unitCost: "12.40", createdById: technician.id });
  longIncident = await createIncident(db, {
    entityId: entity.id,
    roomId: elsewhere.id,
    title: "Lek in de kelder ".repeat(12).trim(),
    description: Array.from({ length: 60 }, (_, i) => `Regel ${i + 1}: het water staat hoger dan gisteren en loopt langs de muur naar de technische ruimte.`).join("\n"),
  });
  for (let i = 1; i <= 5; i++) {
    await createIncidentComment(db, { entityId: entity.id, incidentId: longIncident.id, authorId: admin.id, body: "Lange opmerking. ".repeat(80) });
  }
});

afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("renderWorkOrder", () => {
  it("renders an A4 PDF in the user's language with the incident, its place, checklist and latest comments", async () => {
    const ctx = services.ctx(entity.id, { id: technician.id, role: Role.TECHNICIAN }, { locale: "nl-BE" });
    const { pdf, shortId, fileName } = await workOrder(ctx, incident.id, { origin: "https://caretaker.example", now: new Date("2026-11-23T09:00:00Z") });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(shortId).toBe(incident.shortId);
    expect(fileName).toBe(`work-order-${incident.shortId}.pdf`);
    expect(pdf.toString("latin1")).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    if (!hasPdftotext) return;
    const text = textOf(pdf);
    if (process.env.WORK_ORDER_PDF) fs.writeFileSync(process.env.WORK_ORDER_PDF, pdf);
    for (const expected of [
      "Werkbon",
      `#${incident.shortId}`,
      "Gemeente Zonnedorp",
      "Projector geeft geen beeld",
      "toont geen beeld",
      "In behandeling",
      "Hoog",
      "Projector defect",
      "Tom Technicus",
      "Campus Noord / Blok B / Vergaderzaal 2.14",
      "PROJ-0042",
      "audiovisueel, dringend",
      "leraar@school.test",
      "Is de stekker ingeplugd?",
      "Brandt het lampje op de projector?",
      // Every reporter's answers, report by report, in words.
      "Antwoorden van de melders",
      "Melding 1",
      "Melding 2",
      "Is de stekker ingeplugd?: Ja",
      "Brandt het lampje op de projector?: Nee",
      "Is de stekker ingeplugd?: Nee",
      "Laatste opmerkingen (5 van 7)",
      "Opmerking 7",
      "Handtekeningen",
      "Technicus",
      "Aanvrager",
      "Afgedrukt op",
      "Scan om hier een probleem te melden",
      itemCode,
      "Pagina 1 van",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Only the five latest comments; the Brussels date of the creation (09:15 local).
    expect(text).not.toContain("Opmerking 2:");
    expect(text).toContain("09:15");
  });

  it("keeps the reporters' answers once the incident type is archived", async () => {
    if (!hasPdftotext) return;
    const ctx = services.ctx(entity.id, { id: admin.id, role: Role.ADMINISTRATOR }, { locale: "en" });
    await database.db.update(incidents).set({ incidentTypeId: null }).where(eq(incidents.id, incident.id));
    try {
      const text = textOf(await renderWorkOrder(ctx, incident.id));
      expect(text).toContain("Reporters' answers");
      expect(text).toContain("Is de stekker ingeplugd?: Yes");
      expect(text).not.toContain("This incident type has no checklist");
    } finally {
      await database.db.update(incidents).set({ incidentTypeId: type.id }).where(eq(incidents.id, incident.id));
    }
  });

  it("speaks English and French too", async () => {
    if (!hasPdftotext) return;
    const en = textOf(await renderWorkOrder(services.ctx(entity.id, { id: admin.id, role: Role.ADMINISTRATOR }, { locale: "en" }), incident.id));
    expect(en).toContain("Work order");
    expect(en).toContain("In Progress");
    expect(en).toContain("Signatures");
    // The totals of the time and material, in the entity's currency (pdftotext reads the labels, then the values).
    expect(en).toContain("Time and costs Total time Labour Materials Total 2 h 0 min €60.00 (partial: 1 without a rate) €31.00 €91.00");
    const fr = textOf(await renderWorkOrder(services.ctx(entity.id, { id: admin.id, role: Role.ADMINISTRATOR }, { locale: "fr-BE" }), incident.id));
    expect(fr).toContain("Bon de travail");
    expect(fr).toContain("En cours");
    expect(fr).toContain("Équipement");
    expect(fr).toContain("Temps et coûts Temps total Main-d'œuvre Matériel Total 2 h 0 min 60,00 € (partiel : 1 sans tarif) 31,00 € 91,00 €");
    // Tom, a technician: Ada's time counts in the labour, so neither labour nor total is printed for him (decision 065).
    const tom = textOf(await renderWorkOrder(services.ctx(entity.id, { id: technician.id, role: Role.TECHNICIAN }, { locale: "en" }), incident.id));
    expect(tom).toContain("Time and costs Total time Materials 2 h 0 min €31.00");
    expect(tom).not.toContain("€60.00");
    expect(tom).not.toContain("€91.00");
  });

  it("flows a long description and long comments onto further pages", async () => {
    const ctx = services.ctx(entity.id, { id: admin.id, role: Role.ADMINISTRATOR }, { locale: "en" });
    const pdf = await renderWorkOrder(ctx, longIncident.id);
    expect(pagesOf(pdf)).toBeGreaterThanOrEqual(2);
    if (!hasPdftotext) return;
    const text = textOf(pdf);
    expect(text).toContain("Regel 1:");
    expect(text).toContain("Regel 60:");
    expect(text).toContain(`Page ${pagesOf(pdf)} of ${pagesOf(pdf)}`);
    expect(text).toContain("Requester");
  });

  it("is not found for another entity or a technician outside reach", async () => {
    await expect(renderWorkOrder(services.ctx(other.id, { id: otherAdmin.id, role: Role.ADMINISTRATOR }), incident.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(renderWorkOrder(services.ctx(entity.id, { id: outsider.id, role: Role.TECHNICIAN }), incident.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("the work order of an entity in New York", () => {
  it("prints every date in New York time, on both sides of a change of summer time", async () => {
    const db = database.db;
    const ny = await createEntity(db, { name: "Town of Springfield", timeZone: "America/New_York" });
    const nyAdmin = await createUser(db, { entityId: ny.id, role: Role.ADMINISTRATOR, name: "Ned", surname: "Admin" });
    const nyIncident = await createIncident(db, {
      entityId: ny.id,
      roomId: (await createRoom(db, { entityId: ny.id })).id,
      title: "Boiler noise",
      createdAt: new Date("2026-03-08T06:30:00Z"), // 01:30 EST
      lastOccurrenceAt: new Date("2026-03-08T07:30:00Z"), // 03:30 EDT, an hour later
    });
    // 01:30 twice on 1 November: first in summer time, then an hour later in winter time.
    await createIncidentComment(db, { entityId: ny.id, incidentId: nyIncident.id, authorId: nyAdmin.id, body: "First look", createdAt: new Date("2026-11-01T05:30:00Z") });
    await createIncidentComment(db, { entityId: ny.id, incidentId: nyIncident.id, authorId: nyAdmin.id, body: "Second look", createdAt: new Date("2026-11-01T06:45:00Z") });
    // The context carries the entity's zone, as the session check reads it.
    const ctx = services.ctx(ny.id, { id: nyAdmin.id, role: Role.ADMINISTRATOR }, { locale: "en", timeZone: ny.timeZone });
    // 04:30 UTC on 2 November is still 1 November in New York (in Brussels it is the 2nd).
    const pdf = await renderWorkOrder(ctx, nyIncident.id, { now: new Date("2026-11-02T04:30:00Z") });
    if (!hasPdftotext) return;
    const text = textOf(pdf);
    for (const expected of [
      "Mar 8, 2026, 1:30 AM",
      "Mar 8, 2026, 3:30 AM",
      "Nov 1, 2026, 1:30 AM",
      "Nov 1, 2026, 1:45 AM",
      "Nov 1, 2026, 11:30 PM",
      `#${nyIncident.shortId} · Nov 1, 2026`,
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("Nov 2, 2026");
  });
});

describe("pdfText", () => {
  it("keeps what the standard fonts draw and replaces the rest", () => {
    expect(pdfText("Café – “ok” €")).toBe("Café – “ok” €");
    expect(pdfText("a\u202fb\u00a0c")).toBe("a b c");
    expect(pdfText("smile 🙂")).toBe("smile ?");
    expect(pdfText("Łódź")).toBe("?ódz");
    expect(pdfText("Ṡ")).toBe("S");
    expect(pdfText("x\u0000y\r\nz")).toBe("xy\nz");
  });
});

if (process.env.WORK_ORDER_PREVIEW) {
  it("writes preview files", async () => {
    const ctx = services.ctx(entity.id, { id: technician.id, role: Role.TECHNICIAN }, { locale: "nl-BE" });
    fs.writeFileSync(path.join(process.env.WORK_ORDER_PREVIEW!, "demo.pdf"), await renderWorkOrder(ctx, incident.id, { origin: "https://caretaker.example" }));
    const admCtx = services.ctx(entity.id, { id: admin.id, role: Role.ADMINISTRATOR }, { locale: "en" });
    fs.writeFileSync(path.join(process.env.WORK_ORDER_PREVIEW!, "long.pdf"), await renderWorkOrder(admCtx, longIncident.id, { origin: "https://caretaker.example" }));
  });
}
