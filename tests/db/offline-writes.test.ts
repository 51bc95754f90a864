import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type OfflineWrite, OfflineWriteApplied, offlineWriteApplied } from "~/core/offline-writes.server";
import { Role } from "~/db/enums";
import { incidents, offlineWrites, type User } from "~/db/schema";
import { addIncidentTag } from "~/modules/incidents/service.server";
import { createIncident, createUser } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";

/**
 * A post the service worker sends again (issue 64) is applied once: the first send records its id with its
 * work; a second send of the same id (its first answer lost on the way back) is refused as applied, and
 * changes nothing. A refused first send records nothing, so the next send applies it; the id is the person's
 * own (another person's post with the same id is theirs to apply).
 */
const handle = setupTestDatabase();
const people = setupTwoEntities(handle);

let colleague: User;
beforeAll(async () => {
  colleague = await createUser(handle.db, { entityId: people.entity.id, role: Role.ADMINISTRATOR });
});

const write = (user: { id: number; entityId: number }, id: string): OfflineWrite => ({ entityId: user.entityId, userId: user.id, id, recorded: false });
const tagsOf = async (id: number) => (await handle.db.select({ tags: incidents.tags }).from(incidents).where(eq(incidents.id, id)))[0].tags;

describe("offline writes", () => {
  it("a second send of the same post is refused as applied and changes nothing", async () => {
    const incident = await createIncident(handle.db, { entityId: people.entity.id });
    const id = "0b7f3c2e-5d1a-4c8e-9f00-000000000001";
    const first = actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) });
    await addIncidentTag(first, incident.id, { tag: "pump" });
    expect(await tagsOf(incident.id)).toEqual(["pump"]);
    expect(await offlineWriteApplied(handle.db, write(people.admin, id))).toBe(true);

    const again = actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) });
    await expect(addIncidentTag(again, incident.id, { tag: "valve" })).rejects.toBeInstanceOf(OfflineWriteApplied);
    expect(await tagsOf(incident.id)).toEqual(["pump"]);
  });

  it("one request's later units of work do not record the post again", async () => {
    const incident = await createIncident(handle.db, { entityId: people.entity.id });
    const ctx = actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, "0b7f3c2e-5d1a-4c8e-9f00-000000000002") });
    await addIncidentTag(ctx, incident.id, { tag: "north" });
    await addIncidentTag(ctx, incident.id, { tag: "south" });
    expect(await tagsOf(incident.id)).toEqual(["north", "south"]);
  });

  it("a refused send records nothing: the next send of it applies", async () => {
    const incident = await createIncident(handle.db, { entityId: people.entity.id });
    const id = "0b7f3c2e-5d1a-4c8e-9f00-000000000003";
    await expect(addIncidentTag(actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) }), incident.id, { tag: "" })).rejects.toThrow();
    expect(await offlineWriteApplied(handle.db, write(people.admin, id))).toBe(false);
    await addIncidentTag(actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) }), incident.id, { tag: "later" });
    expect(await tagsOf(incident.id)).toEqual(["later"]);
  });

  it("the id is the person's: another person's post with the same id applies", async () => {
    const incident = await createIncident(handle.db, { entityId: people.entity.id });
    const id = "0b7f3c2e-5d1a-4c8e-9f00-000000000004";
    await addIncidentTag(actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) }), incident.id, { tag: "first" });
    await addIncidentTag(actorContext(handle.db, colleague, { offlineWrite: write(colleague, id) }), incident.id, { tag: "second" });
    expect(await tagsOf(incident.id)).toEqual(["first", "second"]);
    expect(await offlineWriteApplied(handle.db, write(people.otherAdmin, id))).toBe(false);
  });

  it("two sends of one post at the same moment: one applies, the other is refused as applied", async () => {
    const incident = await createIncident(handle.db, { entityId: people.entity.id });
    const id = "0b7f3c2e-5d1a-4c8e-9f00-000000000005";
    const send = (tag: string) => addIncidentTag(actorContext(handle.db, people.admin, { offlineWrite: write(people.admin, id) }), incident.id, { tag });
    const outcomes = await Promise.allSettled([send("alpha"), send("beta")]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(OfflineWriteApplied);
    expect((await tagsOf(incident.id)).length).toBe(1);
    const rows = await handle.db.select().from(offlineWrites).where(eq(offlineWrites.writeId, id));
    expect(rows).toHaveLength(1);
  });
});
