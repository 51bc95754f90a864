import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import equipment from "~/locales/en/equipment.json";
import nlCommon from "~/locales/nl-BE/common.json";
import nlEquipment from "~/locales/nl-BE/equipment.json";
import type { EquipmentItemRecordView } from "~/modules/equipment/item-queries.server";
import { renderInRouter } from "#tests/render-in-router";
import { ItemRecordForm, ItemRecordView } from "./item-record";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { common, equipment }, "nl-BE": { common: nlCommon, equipment: nlEquipment } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

const record: EquipmentItemRecordView = {
  id: 12,
  roomId: 3,
  serialNumber: "WB-20-77",
  manufacturer: "Bosch",
  model: "Condens 7000",
  installedOn: "2023-10-02",
  warrantyEndsOn: "2027-03-14",
  notes: null,
  supplier: "Thermo Liège",
  parentItemId: 5,
  parent: { id: 5, equipmentName: "Boiler room", internalReference: "BR-1", archived: true },
  children: [{ id: 14, equipmentName: "Pump", internalReference: "PMP-1", archived: false }],
  files: [{ id: "3f1e0c1a-0000-4000-8000-000000000001", name: "manual.pdf", mimeType: "application/pdf", sizeBytes: 2048, url: "/files/3f1e0c1a-0000-4000-8000-000000000001", isImage: false }],
};

describe("an equipment item's record", () => {
  it("shows its fields, an archived parent without a link, its children and files linked", async () => {
    const html = await renderInRouter(i18n, <ItemRecordView record={record} />);
    expect(html).toContain("WB-20-77");
    expect(html).toContain("Mar 14, 2027");
    expect(html).toContain("Boiler room · BR-1 (archived)");
    expect(html).not.toContain('href="/view-equipment/5"');
    expect(html).toContain('href="/view-equipment/14"');
    expect(html).toContain('href="/files/3f1e0c1a-0000-4000-8000-000000000001"');
  });

  it("is a plain multipart form posting intent=record, the archived parent still a choice, in Dutch too", async () => {
    const html = await renderInRouter(i18n, <ItemRecordForm record={record} parentChoices={[{ id: 14, equipmentName: "Pump", internalReference: "PMP-1", archived: false }]} maxBytes={1024 * 1024} />);
    expect(html).toContain('encType="multipart/form-data"');
    expect(html).toContain('name="intent" value="record"');
    expect(html).toContain('value="2027-03-14"');
    expect(html).toMatch(/<option value="5" selected="">Boiler room · BR-1 \(archived\)<\/option>/);
    await i18n.changeLanguage("nl-BE");
    try {
      expect(await renderInRouter(i18n, <ItemRecordView record={record} />)).toContain("Serienummer");
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});
