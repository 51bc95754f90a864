import { describe, expect, it } from "vitest";
import { BulkUploadType, NotificationType } from "~/db/enums";
import { getT } from "~/i18n.server";
import type { Locale } from "~/i18n";
import { notificationTitle, subjectIsItsTitle } from "./present";

/**
 * An import's notification names what was imported (issue 60): a rooms import is not announced as a
 * facilities import, though SPEC.md's notification types group the eight import types into four areas.
 */
const titleOf = (locale: Locale, type: NotificationType, importType: number | undefined) => {
  const { key, params } = notificationTitle({ type, subject: "import 8", message: importType === undefined ? { dataJobId: 8 } : { importType, rows: 2, dataJobId: 8 }, incidentId: null });
  return getT(locale)(key, params);
};

describe("an import notification's title", () => {
  it.each([
    [BulkUploadType.FACILITY, NotificationType.IMPORT_FACILITIES_SUCCESS, NotificationType.IMPORT_FACILITIES_FAILURE, "Facilities import succeeded", "Facilities import failed"],
    [BulkUploadType.BUILDING, NotificationType.IMPORT_FACILITIES_SUCCESS, NotificationType.IMPORT_FACILITIES_FAILURE, "Buildings import succeeded", "Buildings import failed"],
    [BulkUploadType.ROOM_TYPES, NotificationType.IMPORT_FACILITIES_SUCCESS, NotificationType.IMPORT_FACILITIES_FAILURE, "Room types import succeeded", "Room types import failed"],
    [BulkUploadType.ROOMS, NotificationType.IMPORT_FACILITIES_SUCCESS, NotificationType.IMPORT_FACILITIES_FAILURE, "Rooms import succeeded", "Rooms import failed"],
    [BulkUploadType.EQUIPMENT_CATEGORIES, NotificationType.IMPORT_EQUIPMENTS_SUCCESS, NotificationType.IMPORT_EQUIPMENTS_FAILURE, "Equipment categories import succeeded", "Equipment categories import failed"],
    [BulkUploadType.EQUIPMENT_TYPES, NotificationType.IMPORT_EQUIPMENTS_SUCCESS, NotificationType.IMPORT_EQUIPMENTS_FAILURE, "Generic equipment import succeeded", "Generic equipment import failed"],
    [BulkUploadType.MAINTENANCE_TYPES, NotificationType.IMPORT_MAINTENANCE_SUCCESS, NotificationType.IMPORT_MAINTENANCE_FAILURE, "Maintenance types import succeeded", "Maintenance types import failed"],
    [BulkUploadType.INCIDENT_TYPE, NotificationType.IMPORT_INCIDENTS_SUCCESS, NotificationType.IMPORT_INCIDENTS_FAILURE, "Incident types import succeeded", "Incident types import failed"],
    [BulkUploadType.EQUIPMENT_ITEMS, NotificationType.IMPORT_EQUIPMENTS_SUCCESS, NotificationType.IMPORT_EQUIPMENTS_FAILURE, "Equipment items import succeeded", "Equipment items import failed"],
  ])("names import type %i in English", (importType, success, failure, succeeded, failed) => {
    expect(titleOf("en", success, importType)).toBe(succeeded);
    expect(titleOf("en", failure, importType)).toBe(failed);
  });

  it("names rooms and facilities in French and Dutch too", () => {
    expect(titleOf("fr-BE", NotificationType.IMPORT_FACILITIES_SUCCESS, BulkUploadType.ROOMS)).toBe("Import des locaux réussi");
    expect(titleOf("fr-BE", NotificationType.IMPORT_FACILITIES_FAILURE, BulkUploadType.ROOMS)).toBe("Échec de l'import des locaux");
    expect(titleOf("fr-BE", NotificationType.IMPORT_FACILITIES_SUCCESS, BulkUploadType.FACILITY)).toBe("Import des sites réussi");
    expect(titleOf("nl-BE", NotificationType.IMPORT_FACILITIES_SUCCESS, BulkUploadType.ROOMS)).toBe("Import van lokalen geslaagd");
    expect(titleOf("nl-BE", NotificationType.IMPORT_FACILITIES_FAILURE, BulkUploadType.FACILITY)).toBe("Import van sites mislukt");
  });

  it("keeps the area's title when the notification does not say its import type", () => {
    expect(titleOf("en", NotificationType.IMPORT_EQUIPMENTS_SUCCESS, undefined)).toBe("Equipment import succeeded");
    expect(titleOf("en", NotificationType.IMPORT_FACILITIES_FAILURE, 99)).toBe("Facilities import failed");
  });
});

describe("a service-level alert's title", () => {
  const title = (locale: Locale, type: NotificationType, side: string | undefined) => {
    const message = { incidentShortId: 12, incidentTitle: "Leak", ...(side ? { serviceLevelSide: side } : {}) };
    const { key, params } = notificationTitle({ type, subject: "#12 Leak", message, incidentId: 5 });
    return getT(locale)(key, params);
  };

  it("names the side and the stage", () => {
    expect(title("en", NotificationType.SERVICE_LEVEL_WARNING, "response")).toBe("Response due soon on incident #12: Leak");
    expect(title("en", NotificationType.SERVICE_LEVEL_BREACHED, "resolution")).toBe("Resolution target missed on incident #12: Leak");
    expect(title("fr-BE", NotificationType.SERVICE_LEVEL_BREACHED, "response")).toBe("Délai de réponse dépassé pour l'incident #12 : Leak");
    expect(title("nl-BE", NotificationType.SERVICE_LEVEL_WARNING, "resolution")).toBe("Oplostermijn verloopt bijna voor incident #12: Leak");
  });

  it("falls back to the type's title without a side", () => {
    expect(title("en", NotificationType.SERVICE_LEVEL_BREACHED, undefined)).toBe("Incident #12 overdue: Leak");
    expect(title("en", NotificationType.SERVICE_LEVEL_WARNING, "sideways")).toBe("Incident #12 due soon: Leak");
  });
});

describe("subjectIsItsTitle", () => {
  it("holds for imports and every export's success (13 to 24, and 30 and 31 for time and material), not for the others", () => {
    expect([5, 12, 13, 24, 30, 31].map(subjectIsItsTitle)).toEqual([true, true, true, true, true, true]);
    expect([0, 4, 25, 26, 27, 28, 29].map(subjectIsItsTitle)).toEqual([false, false, false, false, false, false, false]);
  });

  it("titles the time and material exports in each language", () => {
    const title = (locale: Locale, type: number) => getT(locale)(`notifications:type.${type}`);
    expect([title("en", 30), title("fr-BE", 30), title("nl-BE", 31)]).toEqual(["Time entries export ready", "Export des prestations prêt", "Export van materiaallijnen klaar"]);
  });
});
