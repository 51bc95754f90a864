import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { accounts, expect, test, unique } from "./fixtures";
import { apiLogin, field, fieldError as fieldErrorOf, setLanguage, successToast } from "./helpers";

/**
 * The facility tree and the equipment catalogue (issue #4), end to end, once with JavaScript on and
 * once off (the two projects), in English (manager) and in French (administrator): create a facility,
 * a building, a room type, a category, a generic equipment and a room with two equipment items and a
 * link; edit each; archive the facility with the name check and see its tree leave the lists.
 * Labels come from the locale files, so the test reads like the screen in either language.
 */

type Dict = Record<string, unknown>;
function locale(lng: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = {
    common: read("common"),
    facilities: read("facilities"),
    rooms: read("rooms"),
    equipment: read("equipment"),
  };
  /** `t("rooms:room.name")`, with `{{x}}` placeholders filled. */
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}
type T = ReturnType<typeof locale>;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const fieldError = (page: Page, text: string) => fieldErrorOf(page, text).first();

/** Submits the form: "Add" on an add screen, "Save" on an update screen. */
async function submit(page: Page, t: T, label: "add" | "save") {
  await page.getByRole("button", { name: t(`actions.${label}`), exact: true }).click();
}

/**
 * Chooses a building in the room form's picker: searched by name (without JavaScript "Find" posts the
 * form and the server answers it with the input kept; with JavaScript the matches load as you type),
 * then picked from the matches.
 */
async function pickBuilding(page: Page, t: T, building: string, facility: string) {
  await page.getByLabel(t("picker.searchBuildings"), { exact: true }).fill(building);
  const find = page.getByRole("button", { name: t("picker.find"), exact: true });
  if (await find.isVisible()) await find.click();
  const label = t("picker.buildingOption", { building, facility });
  const select = field(page, t("rooms:room.building"));
  await expect(select.locator("option", { hasText: label })).toHaveCount(1);
  await select.selectOption({ label });
}

async function expectRow(page: Page, name: string) {
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
}

async function search(page: Page, t: T, text: string) {
  await page.getByRole("searchbox", { name: t("list.search") }).or(page.getByLabel(t("list.search"))).first().fill(text);
  await page.getByRole("button", { name: t("list.searchButton"), exact: true }).click();
}

async function archive(page: Page, t: T, trigger: string, name: string) {
  await page.getByRole("link", { name: trigger }).or(page.getByRole("button", { name: trigger })).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await field(dialog, t("archive.confirmLabel")).fill(`${name} (wrong)`);
  await dialog.getByRole("button", { name: t("archive.action"), exact: true }).click();
  await expect(fieldError(page, t("archive.wrongName"))).toBeVisible();
  await field(page.getByRole("dialog"), t("archive.confirmLabel")).fill(name);
  await page.getByRole("dialog").getByRole("button", { name: t("archive.action"), exact: true }).click();
  await expect(successToast(page)).toContainText(t("toast.archived"));
}

async function facilityTree(page: Page, t: T) {
  const facility = unique("Campus");
  const building = unique("Tower");
  const roomType = unique("Office");
  const category = unique("Furniture");
  const equipment = unique("Desk");
  const room = unique("Room");

  // Facility.
  await page.goto("/facilities");
  await page.getByRole("link", { name: t("facilities:facilities.add") }).click();
  await submit(page, t, "add");
  await expect(fieldError(page, t("facilities:validation.nameRequired"))).toBeVisible();
  await field(page, t("facilities:facility.name")).fill(facility);
  await field(page, t("facilities:facility.description")).fill("Main site");
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await expectRow(page, facility);

  // Building in it.
  await page.goto("/facilities?tab=buildings");
  await page.getByRole("link", { name: t("facilities:buildings.add") }).click();
  await field(page, t("facilities:building.name")).fill(building);
  await field(page, t("facilities:building.facility")).selectOption({ label: facility });
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await expectRow(page, building);

  // Room type with a tag.
  await page.goto("/room-type");
  await page.getByRole("link", { name: t("rooms:roomTypes.add") }).click();
  await field(page, t("rooms:roomType.name")).fill(roomType);
  await page.getByRole("button", { name: t("tags.add") }).click();
  await page.getByLabel(`${t("tags.label")} 1`).fill("open space");
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await expectRow(page, roomType);

  // Category and a generic equipment in it.
  await page.goto("/equipments?tab=categories");
  await page.getByRole("link", { name: t("equipment:categories.add") }).click();
  await field(page, t("equipment:category.name")).fill(category);
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await expectRow(page, category);

  await page.goto("/equipments");
  await page.getByRole("link", { name: t("equipment:types.add") }).click();
  await field(page, t("equipment:type.name")).fill(equipment);
  await field(page, t("equipment:type.category")).selectOption({ label: category });
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await expectRow(page, equipment);

  // Room: first without equipment and with a bad link (the two messages), then two items and a link.
  await page.goto("/facilities?tab=rooms");
  await page.getByRole("link", { name: t("rooms:rooms.add") }).click();
  await field(page, t("rooms:room.name")).fill(room);
  await field(page, t("rooms:room.floor")).fill("2");
  await pickBuilding(page, t, building, facility);
  // The search kept what was typed.
  await expect(field(page, t("rooms:room.name"))).toHaveValue(room);
  await expect(field(page, t("rooms:room.floor"))).toHaveValue("2");
  await field(page, t("rooms:room.roomType")).selectOption({ label: roomType });
  await page.getByRole("button", { name: t("rooms:room.addLink") }).click();
  await field(page, t("rooms:room.linkType")).selectOption({ label: t("rooms:linkTypes.9") });
  await field(page, t("rooms:room.url")).fill("not a url");
  await submit(page, t, "add");
  await expect(fieldError(page, t("rooms:validation.noEquipment"))).toBeVisible();
  await expect(fieldError(page, t("rooms:validation.url"))).toBeVisible();
  // The input is kept.
  await expect(field(page, t("rooms:room.name"))).toHaveValue(room);

  await field(page, t("rooms:room.url")).fill("https://wifi.example.com/guest");
  await page.getByText(t("rooms:room.addEquipment"), { exact: true }).first().click();
  await field(page, t("rooms:room.genericEquipment")).selectOption({ label: equipment });
  await field(page, t("rooms:room.quantity")).fill("2");
  await page.getByRole("button", { name: t("rooms:room.addItems") }).click();
  const references = page.getByLabel(new RegExp(`^${escape(t("rooms:room.internalReference"))} – ${escape(equipment)}`));
  await expect(references).toHaveCount(2);
  await expect(references.first()).toHaveValue(`${equipment} 1`);
  await references.nth(1).fill("DESK-B");
  await submit(page, t, "add");
  await expect(successToast(page)).toContainText(t("toast.created"));
  await search(page, t, room);
  await expectRow(page, room);
  const roomRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: room, exact: true }) });
  await expect(roomRow).toContainText(building);

  // The room view: its QR code, both items and the link.
  await page.getByRole("link", { name: t("rooms:rooms.viewLabel", { name: room }) }).click();
  await expect(page.getByRole("img", { name: t("rooms:view.qrAlt", { name: room }) })).toBeVisible();
  await expect(page.getByText("DESK-B")).toBeVisible();
  await expect(page.getByText(`${equipment} 1`)).toBeVisible();
  await expect(page.getByRole("link", { name: /wifi\.example\.com/ })).toBeVisible();

  // Edit each.
  await page.goto("/facilities");
  await page.getByRole("link", { name: facility, exact: true }).click();
  await field(page, t("facilities:facility.description")).fill("Main site, north wing");
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));

  await page.goto("/facilities?tab=buildings");
  await page.getByRole("link", { name: building, exact: true }).click();
  await field(page, t("facilities:building.name")).fill(`${building}-A`);
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));
  await expectRow(page, `${building}-A`);

  await page.goto("/room-type");
  await page.getByRole("link", { name: roomType, exact: true }).click();
  await field(page, t("rooms:roomType.name")).fill(`${roomType}-A`);
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));
  await expectRow(page, `${roomType}-A`);

  await page.goto("/equipments?tab=categories");
  await page.getByRole("link", { name: category, exact: true }).click();
  await field(page, t("equipment:category.name")).fill(`${category}-A`);
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));
  await expectRow(page, `${category}-A`);

  await page.goto("/equipments");
  await page.getByRole("link", { name: equipment, exact: true }).click();
  await field(page, t("equipment:type.notes")).fill("Height adjustable");
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));

  await page.goto(`/facilities?tab=rooms&q=${encodeURIComponent(room)}`);
  await page.getByRole("link", { name: room, exact: true }).click();
  await expect(references).toHaveCount(2);
  await references.first().fill("DESK-A");
  await submit(page, t, "save");
  await expect(successToast(page)).toContainText(t("toast.updated"));

  // Archive the facility (wrong name first): its building and room leave the lists.
  await page.goto("/facilities");
  await page.getByRole("link", { name: facility, exact: true }).click();
  await archive(page, t, t("facilities:facility.archive"), facility);
  await expect(page).toHaveURL(/\/facilities$/);
  await expect(page.getByRole("link", { name: facility, exact: true })).toHaveCount(0);
  await page.goto(`/facilities?tab=buildings&q=${encodeURIComponent(building)}`);
  await expect(page.getByText(t("facilities:buildings.noMatch"))).toBeVisible();
  await page.goto(`/facilities?tab=rooms&q=${encodeURIComponent(room)}`);
  await expect(page.getByText(t("rooms:rooms.noMatch"))).toBeVisible();
  // The catalogue stays.
  await page.goto("/equipments");
  await expectRow(page, equipment);
}

test.describe("facility tree and equipment catalogue", () => {
  test.describe.configure({ timeout: 150_000 });
  test.use({ actionTimeout: 15_000 });

  test("a manager builds, edits and archives a facility tree (English)", async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await facilityTree(page, locale("en"));
  });

  test("an administrator does the same in French", async ({ page, login, javaScriptEnabled }) => {
    // Each form is checked without JavaScript by the English run (the suite's time, issue #9).
    test.skip(!javaScriptEnabled, "French runs with JavaScript on");
    await login(accounts.admin, { consent: true });
    await setLanguage(page, "fr-BE");
    try {
      await facilityTree(page, locale("fr-BE"));
    } finally {
      await setLanguage(page, "en");
    }
  });

  test("a technician sees the rooms of their facilities and buildings only", async ({ page, request, login }) => {
    const { headers } = await apiLogin(request, accounts.technician);
    // Every room of the entity (as the manager sees them), then which ones the technician may open.
    const { headers: managerHeaders } = await apiLogin(request, accounts.manager);
    // (REST lists answer 25 rows unless `size` says; the demo entity has fewer than 100 rooms.)
    const rooms = (await (await request.get("/api/facilities/rooms?size=100", { headers: managerHeaders })).json()) as { id: number; name: string }[];
    const listed = (await (await request.get("/api/facilities/rooms?size=100", { headers })).json()) as { id: number }[];
    expect(listed.length).toBeLessThan(rooms.length);
    const allowed: { id: number; name: string }[] = [];
    const refused: { id: number; name: string }[] = [];
    for (const room of rooms) {
      const status = (await request.get(`/api/facilities/rooms/${room.id}`, { headers })).status();
      (status === 200 ? allowed : refused).push(room);
      if (allowed.length && refused.length) break;
    }
    expect(allowed.length && refused.length, "the demo technician is linked to some rooms, not all").toBeTruthy();

    await login(accounts.technician, { consent: true });
    await page.goto(`/view-room/${allowed[0].id}`);
    await expect(page.getByRole("heading", { name: allowed[0].name, level: 1 })).toBeVisible();
    await expect(page.getByRole("img", { name: `QR code to report an incident in ${allowed[0].name}` })).toBeVisible();
    await page.goto(`/view-room/${refused[0].id}`);
    await expect(page).toHaveURL(/\/forbidden$/);
  });

  test("the facility and building views list their contents and lead to their forms", async ({ page, request, login }) => {
    const t = locale("en");
    const { headers } = await apiLogin(request, accounts.manager);
    const facility = ((await (await request.get("/api/facilities?size=1", { headers })).json()) as { id: number; name: string }[])[0];
    const buildings = (await (await request.get(`/api/facilities/buildings?size=100`, { headers })).json()) as { id: number; name: string; facilityId: number }[];
    const building = buildings.find((b) => b.facilityId === facility.id);
    expect(building, "the demo facility has a building").toBeTruthy();

    await login(accounts.manager, { consent: true });
    await page.goto("/facilities");
    await page.getByRole("link", { name: t("facilities:view.viewLabel", { name: facility.name }), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/view-facility/${facility.id}$`));
    await expect(page.getByRole("heading", { name: facility.name, level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: t("facilities:view.activeIncidents"), level: 2 })).toBeVisible();
    await page.getByRole("link", { name: building!.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/view-building/${building!.id}$`));
    await expect(page.getByRole("heading", { name: building!.name, level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: t("facilities:view.rooms"), level: 2 })).toBeVisible();
    await page.getByRole("link", { name: t("facilities:view.edit"), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/update-building/${building!.id}$`));
  });

  test("a technician views the facilities and buildings they reach, and no other", async ({ page, request, login }) => {
    const { headers: managerHeaders } = await apiLogin(request, accounts.admin);
    const { headers } = await apiLogin(request, accounts.technician);
    const all = (await (await request.get("/api/facilities/buildings?size=100", { headers: managerHeaders })).json()) as { id: number; name: string }[];
    const reached = new Set(((await (await request.get("/api/facilities/buildings?size=100", { headers })).json()) as { id: number }[]).map((b) => b.id));
    const mine = all.find((b) => reached.has(b.id));
    const notMine = all.find((b) => !reached.has(b.id));
    expect(mine && notMine, "the demo technician reaches some buildings, not all").toBeTruthy();

    await login(accounts.technician, { consent: true });
    await page.goto(`/view-building/${mine!.id}`);
    await expect(page.getByRole("heading", { name: mine!.name, level: 1 })).toBeVisible();
    // Technicians do not edit places: no way to the form.
    await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
    const response = await page.goto(`/view-building/${notMine!.id}`);
    expect(response?.status()).toBe(404);
  });

  test("another entity's rooms, buildings and equipment are not found", async ({ page, request, login, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    const { headers } = await apiLogin(request, accounts.manager);
    const first = async (url: string) => ((await (await request.get(url, { headers })).json()) as { id: number }[])[0].id;
    const room = await first("/api/facilities/rooms?size=1");
    const building = await first("/api/facilities/buildings?size=1");
    const facility = await first("/api/facilities?size=1");
    const category = await first("/api/equipments/category?size=1");
    const equipment = await first("/api/equipments/type?size=1");

    await login(accounts.other, { consent: true });
    for (const url of [
      `/view-room/${room}`,
      `/update-room/${room}`,
      `/update-building/${building}`,
      `/update-facility/${facility}`,
      `/update-category/${category}`,
      `/update-equipment-type/${equipment}`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
    }
    // The 404 names what was not found, inside the app's shell.
    await page.goto(`/update-facility/${facility}`);
    await expect(page.getByRole("heading", { name: "Facility not found", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main menu" })).toBeVisible();
    await page.goto(`/view-room/${room}`);
    await expect(page.getByRole("heading", { name: "Room not found", level: 1 })).toBeVisible();
  });

  test("the building picker searches and pages, and filters the rooms list", async ({ page, request, login }) => {
    const t = locale("en");
    const apiLogin = await request.post("/api/authentication/login", { data: { username: accounts.manager, password: "Demo-pass-1!" } });
    const headers = { Authorization: `Bearer ${(await apiLogin.json()).jwtToken}` };
    const facilityName = unique("Picker site");
    const facility = (await (await request.post("/api/facilities", { headers, data: { name: facilityName } })).json()) as { id: number };
    // More buildings than one page of the picker (20).
    const prefix = unique("Wing");
    for (let i = 1; i <= 22; i++) {
      const res = await request.post("/api/facilities/buildings", { headers, data: { name: `${prefix} ${String(i).padStart(2, "0")}`, facilityId: facility.id } });
      expect(res.status()).toBe(201);
    }
    const last = `${prefix} 22`;

    await login(accounts.manager, { consent: true });
    await page.goto("/add-room");
    // The way back is a target of 24 px at least, however short its text ("← Rooms").
    expect((await page.getByRole("main").getByRole("link", { name: t("rooms:room.back"), exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(24);
    await field(page, t("rooms:room.name")).fill("Kept name");
    await page.getByLabel(t("picker.searchBuildings"), { exact: true }).fill(prefix);
    const find = page.getByRole("button", { name: t("picker.find"), exact: true });
    if (await find.isVisible()) await find.click();
    const select = field(page, t("rooms:room.building"));
    const option = (name: string) => select.locator("option", { hasText: t("picker.buildingOption", { building: name, facility: facilityName }) });
    await expect(option(`${prefix} 01`)).toHaveCount(1);
    await expect(option(last)).toHaveCount(0);
    await expect(page.getByText(t("picker.someBuildings", { count: 20 }))).toBeVisible();
    await page.getByRole("button", { name: t("picker.moreBuildings"), exact: true }).click();
    // Without JavaScript the next page replaces the first one; with it, it is added below.
    await expect(option(last)).toHaveCount(1);
    await expect(field(page, t("rooms:room.name"))).toHaveValue("Kept name");
    await page.getByLabel(t("picker.searchBuildings"), { exact: true }).fill(`${prefix} 0`);
    if (await find.isVisible()) await find.click();
    await expect(page.getByText(t("picker.allBuildings_other", { count: 9 }))).toBeVisible();

    // The rooms list's building filter is the same picker, in the list's search form.
    const rooms = (await (await request.get("/api/facilities/rooms?size=1", { headers })).json()) as { buildingId: number; buildingName: string; facilityName: string }[];
    const { buildingName, facilityName: roomFacility } = rooms[0];
    await page.goto("/facilities?tab=rooms");
    await page.getByLabel(t("picker.searchBuildings"), { exact: true }).fill(buildingName);
    if (await find.isVisible()) await find.click();
    const filter = field(page, t("rooms:rooms.filterBuilding"));
    const label = t("picker.buildingOption", { building: buildingName, facility: roomFacility });
    await expect(filter.locator("option", { hasText: label })).toHaveCount(1);
    await filter.selectOption({ label });
    await page.getByRole("button", { name: t("list.searchButton"), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`buildingId=${rooms[0].buildingId}(&|$)`));
    const cells = page.getByRole("row").filter({ has: page.getByRole("link", { name: t("rooms:rooms.view") }) });
    await expect(cells.first()).toContainText(buildingName);
    await expect(field(page, t("rooms:rooms.filterBuilding"))).toHaveValue(String(rooms[0].buildingId));
  });

  test("an update screen opened straight at its archive dialog hydrates without a mismatch", async ({ page, request, login, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "hydration needs JavaScript");
    const admin = await apiLogin(request, accounts.admin);
    const [facility] = (await (await request.get("/api/facilities?size=1", { headers: admin.headers })).json()) as { id: number; name: string }[];
    await login(accounts.admin);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`/update-facility/${facility.id}?dialog=archive`);
    await expect(page.getByRole("dialog")).toBeVisible();
    // Hydrated (the router runs), with the dialog's form code loaded meanwhile.
    await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
    await page.waitForTimeout(1_000);
    expect(errors.filter((e) => /hydrat|did not match|server rendered|Minified React error #(418|419|422|423|425)\b/i.test(e))).toEqual([]);
  });

  test("a technician may not open the facility screens", async ({ page, login }) => {
    await login(accounts.technician, { consent: true });
    for (const url of ["/facilities", "/add-room", "/room-type", "/equipments", "/update-category/1"]) {
      await page.goto(url);
      await expect(page).toHaveURL(/\/forbidden$/);
    }
  });
});
