import { beforeAll, describe, expect, it } from "vitest";
import { newReportCode } from "~/db/report-identifier";
import type { User } from "~/db/schema";
import { findScannedPlace } from "~/modules/rooms/queries.server";
import { createBuilding, createEquipmentItem, createReportIdentifier, createRoom, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";

/**
 * A sticker's code scanned or typed by staff (/scan, issue 64): within the person's entity and reach, the
 * room or equipment item it names; refused alike when unknown, replaced, another entity's or out of reach.
 */
const handle = setupTestDatabase();
const people = setupTwoEntities(handle);

let linkedRoom: { id: number; reportCode: string | null };
let linkedItem: { id: number; reportCode: string | null };
let farRoom: { id: number; reportCode: string | null };
let otherRoom: { id: number; reportCode: string | null };
let archivedRoom: { id: number; reportCode: string | null };
let replacedCode: string;

const scan = (user: User, text: string) => findScannedPlace(actorContext(handle.db, user), text);

beforeAll(async () => {
  const db = handle.db;
  const entityId = people.entity.id;
  const linked = await createBuilding(db, { entityId });
  const far = await createBuilding(db, { entityId });
  linkedRoom = await createRoom(db, { entityId, buildingId: linked.id, reportCode: "K7QW2MZP9XH4C" });
  linkedItem = await createEquipmentItem(db, { entityId, roomId: linkedRoom.id });
  farRoom = await createRoom(db, { entityId, buildingId: far.id });
  archivedRoom = await createRoom(db, { entityId, buildingId: linked.id, archivedAt: new Date() });
  replacedCode = (await createReportIdentifier(db, { entityId, roomId: linkedRoom.id, archivedAt: new Date() })).code;
  otherRoom = await createRoom(db, { entityId: people.other.id });
  await linkUserTo(db, { entityId, userId: people.technician.id, buildingId: linked.id });
});

describe("findScannedPlace", () => {
  it("finds the administrator's own room and equipment item by their codes", async () => {
    expect(await scan(people.admin, linkedRoom.reportCode!)).toEqual({ kind: "room", id: linkedRoom.id });
    expect(await scan(people.admin, linkedItem.reportCode!)).toEqual({ kind: "equipmentItem", id: linkedItem.id });
    expect(await scan(people.admin, farRoom.reportCode!)).toEqual({ kind: "room", id: farRoom.id });
  });

  it("reads the code from the sticker's whole address, a path, spaces around it or lower case", async () => {
    const room = { kind: "room", id: linkedRoom.id };
    expect(await scan(people.admin, "https://caretaker.example/report/K7QW2MZP9XH4C")).toEqual(room);
    expect(await scan(people.admin, "https://caretaker.example/report/K7QW2MZP9XH4C/?from=qr#top")).toEqual(room);
    expect(await scan(people.admin, "/report/K7QW2MZP9XH4C")).toEqual(room);
    expect(await scan(people.admin, "  K7QW2MZP9XH4C \n")).toEqual(room);
    expect(await scan(people.admin, "k7qw2mzp9xh4c")).toEqual(room);
  });

  it("refuses another entity's code as unknown, both ways", async () => {
    expect(await scan(people.admin, otherRoom.reportCode!)).toBe("notFound");
    expect(await scan(people.admin, `https://caretaker.example/report/${otherRoom.reportCode}`)).toBe("notFound");
    expect(await scan(people.otherAdmin, linkedRoom.reportCode!)).toBe("notFound");
    expect(await scan(people.otherAdmin, otherRoom.reportCode!)).toEqual({ kind: "room", id: otherRoom.id });
  });

  it("refuses an unknown code, a replaced one and an archived room's", async () => {
    expect(await scan(people.admin, newReportCode())).toBe("notFound");
    expect(await scan(people.admin, replacedCode)).toBe("notFound");
    expect(await scan(people.admin, archivedRoom.reportCode!)).toBe("notFound");
  });

  it("says when the text holds no code at all", async () => {
    expect(await scan(people.admin, "hello world")).toBe("notACode");
    expect(await scan(people.admin, "https://elsewhere.example/some/page")).toBe("notACode");
    expect(await scan(people.admin, "")).toBe("notACode");
  });

  it("gives a technician what lies in their linked building only", async () => {
    expect(await scan(people.technician, linkedRoom.reportCode!)).toEqual({ kind: "room", id: linkedRoom.id });
    expect(await scan(people.technician, linkedItem.reportCode!)).toEqual({ kind: "equipmentItem", id: linkedItem.id });
    expect(await scan(people.technician, farRoom.reportCode!)).toBe("notFound");
  });

  it("gives a facility manager linked to nothing no room at all", async () => {
    expect(await scan(people.manager, linkedRoom.reportCode!)).toBe("notFound");
    expect(await scan(people.manager, linkedItem.reportCode!)).toBe("notFound");
  });
});
