import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { IncidentStatus, NotificationType, Role } from "~/db/enums";
import { auditLog, type Entity, jobQueue, notificationDetails, notifications, type Room, type User, webhookDeliveries, webhookEndpoints } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { setIncidentStatus } from "~/modules/incidents/service.server";
import { createEntity, createIncident, createRoom, createUser } from "#tests/factories";
import { expectFieldError, rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { isPublicAddress } from "./address.server";
import { DISABLE_AFTER_FAILED_DELIVERIES, MAX_ATTEMPTS, postSigned, pruneWebhookDeliveries, resealWebhookSecrets, UNREADABLE_SECRET } from "./delivery.server";
import { getWebhook, listWebhookDeliveries, listWebhooks } from "./queries.server";
import { createWebhook, deleteWebhook, pingWebhook, rotateWebhookSecret, setWebhookEnabled, updateWebhook } from "./service.server";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, verifySignature } from "./signing.server";

/** Sets WEBHOOKS_ALLOW_PRIVATE for the rest of the test (the configuration is read again). */
function allowPrivate(on: boolean) {
  process.env.WEBHOOKS_ALLOW_PRIVATE = on ? "1" : "0";
  delete (globalThis as Record<string, unknown>).__caretakerConfig;
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback answering `status()`, recording what it got. */
async function startReceiver(status: () => number) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const code = status();
      res.writeHead(code, { "Content-Type": "text/plain" });
      res.end(code < 300 ? "thanks" : "receiver broken");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let database: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let secondAdmin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
let room: Room;

const ctxOf = (user: User) => services.ctx(user.entityId, user);

/** Runs the queue until nothing is due, moving every waiting webhook attempt to now first, `rounds` times. */
async function runDeliveries(rounds = 1) {
  for (let i = 0; i < rounds; i++) {
    await database.db.update(jobQueue).set({ runAfter: sql`now()` }).where(and(eq(jobQueue.name, "webhook-delivery"), eq(jobQueue.state, "pending")));
    await services.queue.drain();
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entityA = await createEntity(db);
  entityB = await createEntity(db);
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  secondAdmin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  room = await createRoom(db, { entityId: entityA.id });
});

beforeEach(() => allowPrivate(true));
afterEach(() => allowPrivate(false));

afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
  await services?.close();
  await database?.close();
});

describe("registering endpoints", () => {
  it("creates an endpoint with a secret shown once, audited, and lists it without the secret", async () => {
    const { webhook, secret } = await createWebhook(ctxOf(admin), { name: "Ticketing", url: "https://93.184.216.34/hook", events: ["incident.created", "task.done"] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({ name: "Ticketing", enabled: true, events: ["incident.created", "task.done"], lastDelivery: null });
    expect(JSON.stringify(await listWebhooks(ctxOf(admin)))).not.toContain(secret);
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.entityId, entityA.id), eq(auditLog.recordType, "webhook"), eq(auditLog.recordId, String(webhook.id))));
    expect(audit.map((a) => a.action)).toEqual(["webhook.create"]);
    const { secret: rotated } = await rotateWebhookSecret(ctxOf(admin), webhook.id);
    expect(rotated).not.toBe(secret);
    await deleteWebhook(ctxOf(admin), webhook.id);
  });

  it("refuses bad input beside its field", async () => {
    await expectFieldError(createWebhook(ctxOf(admin), { name: "", url: "https://93.184.216.34/", events: ["incident.created"] }), "name", "common:validation.required");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "ftp://example.org/", events: ["incident.created"] }), "url", "webhooks:validation.urlInvalid");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "https://user:pw@93.184.216.34/", events: ["incident.created"] }), "url", "webhooks:validation.urlCredentials");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "https://93.184.216.34/", events: [] }), "events", "webhooks:validation.eventsRequired");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "https://93.184.216.34/", events: ["incident.deleted" as never] }), "events.0", "webhooks:validation.eventUnknown");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x\u0000", url: "https://93.184.216.34/", events: ["task.done"] }), "name", "common:validation.controlCharacters");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "https://93.184.216.34/\u0000", events: ["task.done"] }), "url", "common:validation.controlCharacters");
  });

  it("refuses private, loopback and link-local targets and plain http without WEBHOOKS_ALLOW_PRIVATE", async () => {
    allowPrivate(false);
    for (const url of ["https://127.0.0.1/x", "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[::1]/x", "https://[::ffff:192.168.0.1]/x", "https://localhost/x", "https://0.0.0.0/"]) {
      await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url, events: ["task.done"] }), "url", "webhooks:validation.urlPrivate");
    }
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "http://93.184.216.34/x", events: ["task.done"] }), "url", "webhooks:validation.httpsRequired");
    await expectFieldError(createWebhook(ctxOf(admin), { name: "x", url: "https://no-such-host.invalid/x", events: ["task.done"] }), "url", "webhooks:validation.urlUnresolvable");
    // And at delivery time, whatever was saved: a receiver on loopback gets nothing.
    const receiver = await startReceiver(() => 200);
    try {
      const result = await postSigned(receiver.url.replace("http:", "https:"), "{}", {}, { allowPrivate: false });
      expect(result.error).toMatch(/not a public address/);
      const byName = await postSigned(`https://localhost:${new URL(receiver.url).port}/hooks`, "{}", {}, { allowPrivate: false });
      expect(byName.error).toMatch(/not a public address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it("tells public addresses from the others", () => {
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111"]) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a00:1", "224.0.0.1", "not-an-ip"]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it("refuses the IPv6 forms of private IPv4 addresses, when saved and at delivery", async () => {
    allowPrivate(false);
    const privateForms = [
      "::127.0.0.1", // IPv4-compatible
      "::7f00:1",
      "::ffff:127.0.0.1", // IPv4-mapped
      "::ffff:10.1.2.3",
      "::ffff:0:169.254.169.254", // IPv4-translated
      "2002:7f00:1::1", // 6to4 of 127.0.0.1
      "2002:c0a8:101::1", // 6to4 of 192.168.1.1
      "2002:a9fe:a9fe::", // 6to4 of the metadata service
      "64:ff9b::7f00:1", // NAT64 (well-known prefix)
      "64:ff9b::c0a8:101",
      "64:ff9b:1::7f00:1", // NAT64, local-use prefix
      "64:ff9b:1:ffff::",
    ];
    for (const a of privateForms) expect(isPublicAddress(a), a).toBe(false);
    // Their public counterparts stay allowed.
    for (const a of ["64:ff9b::808:808", "2002:5db8:d822::1", "::ffff:93.184.216.34"]) expect(isPublicAddress(a), a).toBe(true);
    for (const host of ["[::127.0.0.1]", "[2002:7f00:1::1]", "[64:ff9b:1::7f00:1]", "[::ffff:127.0.0.1]"]) {
      await expectFieldError(createWebhook(ctxOf(admin), { name: "Loop", url: `https://${host}/hook`, events: ["task.done"] }), "url", "webhooks:validation.urlPrivate");
    }
    const delivered = await postSigned("https://[::ffff:127.0.0.1]:9/hooks", "{}", {}, { allowPrivate: false });
    expect(delivered.error).toMatch(/not a public address/);
  });

  it("refuses another entity's endpoint (NotFound) and anyone but an administrator (Forbidden)", async () => {
    const { webhook } = await createWebhook(ctxOf(admin), { name: "Ours", url: "https://93.184.216.34/hook", events: ["task.done"] });
    const input = { name: "Theirs", url: "https://93.184.216.34/other", events: ["task.done" as const] };
    const other = ctxOf(otherAdmin);
    // Each call is made only when awaited: a rejection waiting in an array is an unhandled one.
    for (const attempt of [
      () => getWebhook(other, webhook.id),
      () => updateWebhook(other, webhook.id, input),
      () => setWebhookEnabled(other, webhook.id, false),
      () => deleteWebhook(other, webhook.id),
      () => rotateWebhookSecret(other, webhook.id),
      () => pingWebhook(other, webhook.id),
      () => listWebhookDeliveries(other, webhook.id),
      () => getWebhook(ctxOf(admin), 2 ** 31 - 1),
    ]) {
      expect(await rejectionOf(attempt())).toBeInstanceOf(NotFoundError);
    }
    for (const user of [manager, technician]) {
      const ctx = ctxOf(user);
      for (const attempt of [
        () => createWebhook(ctx, input),
        () => listWebhooks(ctx),
        () => getWebhook(ctx, webhook.id),
        () => updateWebhook(ctx, webhook.id, input),
        () => setWebhookEnabled(ctx, webhook.id, false),
        () => deleteWebhook(ctx, webhook.id),
        () => rotateWebhookSecret(ctx, webhook.id),
        () => pingWebhook(ctx, webhook.id),
      ]) {
        expect(await rejectionOf(attempt())).toBeInstanceOf(ForbiddenError);
      }
    }
    expect((await getWebhook(ctxOf(admin), webhook.id)).name).toBe("Ours");
    expect(await listWebhooks(ctxOf(otherAdmin))).toEqual([]);
    await deleteWebhook(ctxOf(admin), webhook.id);
  });
});

describe("deliveries", () => {
  it("delivers a change signed, to a receiver that verifies it, and lists the answer", async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const { webhook, secret } = await createWebhook(ctxOf(admin), { name: "Receiver", url: receiver.url, events: ["incident.status-changed"] });
      const ignoring = await createWebhook(ctxOf(admin), { name: "Tasks only", url: receiver.url, events: ["task.done"] });
      const incident = await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
      await setIncidentStatus(ctxOf(admin), incident.id, { status: IncidentStatus.IN_PROGRESS });
      await runDeliveries();
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(verifySignature(secret, got.headers[SIGNATURE_HEADER.toLowerCase()] as string, got.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifySignature(secret, got.headers[SIGNATURE_HEADER.toLowerCase()] as string, `${got.body} `, Math.floor(Date.now() / 1000))).toBe(false);
      const body = JSON.parse(got.body);
      expect(body).toMatchObject({ type: "incident.status-changed", entityId: entityA.id, data: { incidentId: incident.id, from: IncidentStatus.PENDING, to: IncidentStatus.IN_PROGRESS } });
      expect(got.headers[EVENT_HEADER.toLowerCase()]).toBe("incident.status-changed");
      expect(got.headers[DELIVERY_HEADER.toLowerCase()]).toBe(body.id);
      const page = await listWebhookDeliveries(ctxOf(admin), webhook.id);
      expect(page.rows).toHaveLength(1);
      expect(page.rows[0]).toMatchObject({ publicId: body.id, status: "succeeded", attempts: 1, lastStatusCode: 200, lastResponse: "thanks", lastError: null });
      expect((await listWebhookDeliveries(ctxOf(admin), ignoring.webhook.id)).rows).toEqual([]);
      expect((await getWebhook(ctxOf(admin), webhook.id)).lastDelivery).toMatchObject({ status: "succeeded", lastStatusCode: 200 });

      // A test ping, and deliveries paged newest first.
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      expect(JSON.parse(receiver.received[1].body)).toMatchObject({ type: "ping", data: { webhookId: webhook.id } });
      const first = await listWebhookDeliveries(ctxOf(admin), webhook.id, { size: 1 });
      expect(first.rows[0].eventType).toBe("ping");
      const second = await listWebhookDeliveries(ctxOf(admin), webhook.id, { size: 1, before: first.nextBefore });
      expect(second.rows[0].eventType).toBe("incident.status-changed");
      expect(second.nextBefore).toBeNull();
      // Another entity's change reaches none of these endpoints.
      const theirs = await createIncident(database.db, { entityId: entityB.id });
      await setIncidentStatus(ctxOf(otherAdmin), theirs.id, { status: IncidentStatus.IN_PROGRESS });
      await runDeliveries();
      expect(receiver.received).toHaveLength(2);
      await deleteWebhook(ctxOf(admin), webhook.id);
      await deleteWebhook(ctxOf(admin), ignoring.webhook.id);
    } finally {
      await receiver.close();
    }
  });

  it("tries a failing delivery again with back-off, then disables the endpoint and tells the administrators", async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const { webhook } = await createWebhook(ctxOf(admin), { name: "Flaky", url: receiver.url, events: ["incident.status-changed"] });
      const incident = await createIncident(database.db, { entityId: entityA.id, roomId: room.id });
      await setIncidentStatus(ctxOf(admin), incident.id, { status: IncidentStatus.IN_PROGRESS });
      await runDeliveries();
      let [delivery] = (await listWebhookDeliveries(ctxOf(admin), webhook.id)).rows;
      expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastResponse: "receiver broken" });
      expect(delivery.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
      // Not due yet: draining now sends nothing.
      await services.queue.drain();
      expect(receiver.received).toHaveLength(1);
      await runDeliveries(MAX_ATTEMPTS);
      [delivery] = (await listWebhookDeliveries(ctxOf(admin), webhook.id)).rows;
      expect(delivery).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null });
      expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
      expect(new Set(receiver.received.map((r) => r.headers[DELIVERY_HEADER.toLowerCase()])).size).toBe(1);
      expect((await getWebhook(ctxOf(admin), webhook.id)).consecutiveFailures).toBe(1);

      // More failed deliveries in a row: disabled at the threshold, the administrators told once.
      for (let i = 1; i < DISABLE_AFTER_FAILED_DELIVERIES; i++) {
        await setIncidentStatus(ctxOf(admin), incident.id, { status: i % 2 ? IncidentStatus.PENDING : IncidentStatus.IN_PROGRESS });
      }
      await runDeliveries(MAX_ATTEMPTS + 1);
      const disabled = await getWebhook(ctxOf(admin), webhook.id);
      expect(disabled).toMatchObject({ enabled: false, disabledReason: "failures", consecutiveFailures: DISABLE_AFTER_FAILED_DELIVERIES });
      const told = await database.db
        .select({ userId: notifications.userId, subject: notificationDetails.subject })
        .from(notifications)
        .innerJoin(notificationDetails, eq(notificationDetails.id, notifications.detailsId))
        .where(and(eq(notificationDetails.entityId, entityA.id), eq(notificationDetails.type, NotificationType.WEBHOOK_DISABLED)));
      expect(told.map((t) => t.userId).sort()).toEqual([admin.id, secondAdmin.id].sort());
      expect(told.every((t) => t.subject === "Flaky")).toBe(true);

      // Disabled: a new change makes no delivery; enabled again, the count starts at zero.
      const before = receiver.received.length;
      await setIncidentStatus(ctxOf(admin), incident.id, { status: IncidentStatus.DONE });
      await runDeliveries(2);
      expect(receiver.received).toHaveLength(before);
      expect((await setWebhookEnabled(ctxOf(admin), webhook.id, true)).consecutiveFailures).toBe(0);
      await deleteWebhook(ctxOf(admin), webhook.id);
      expect(await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, webhook.id))).toEqual([]);
      expect(await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("records a receiver that does not answer in time as a failed attempt, and validates a posted form's errors", async () => {
    const server = http.createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await postSigned(`http://127.0.0.1:${port}/`, "{}", {}, { allowPrivate: true, timeoutMs: 200 });
      expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/no answer within/) });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await rejectionOf(updateWebhook(ctxOf(admin), 2 ** 31 - 1, { name: "x", url: "https://93.184.216.34/", events: ["task.done"] }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(createWebhook(ctxOf(admin), { name: "x".repeat(101), url: "https://93.184.216.34/", events: ["task.done"] }))).toBeInstanceOf(ValidationError);
  });
});

describe("the deliveries' retention", () => {
  it("removes the finished deliveries older than the age, in every entity, and keeps the pending and recent ones", async () => {
    const db = database.db;
    const { webhook } = await createWebhook(ctxOf(admin), { name: "Kept", url: "https://93.184.216.34/kept", events: ["incident.created"] });
    const { webhook: other } = await createWebhook(ctxOf(otherAdmin), { name: "Kept too", url: "https://93.184.216.34/kept", events: ["incident.created"] });
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    const delivery = (entityId: number, endpointId: number, status: string, createdAt: Date) => ({
      entityId,
      endpointId,
      eventType: "incident.created",
      payload: {},
      status,
      maxAttempts: MAX_ATTEMPTS,
      createdAt,
    });
    const rows = await db
      .insert(webhookDeliveries)
      .values([
        delivery(entityA.id, webhook.id, "succeeded", daysAgo(40)),
        delivery(entityA.id, webhook.id, "failed", daysAgo(31)),
        delivery(entityA.id, webhook.id, "pending", daysAgo(40)),
        delivery(entityA.id, webhook.id, "succeeded", daysAgo(29)),
        delivery(entityB.id, other.id, "failed", daysAgo(60)),
      ])
      .returning({ id: webhookDeliveries.id });
    expect(await pruneWebhookDeliveries({ db: database.db }, 30)).toEqual({ removed: 3 });
    const left = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, rows.map((r) => r.id)));
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual([rows[2].id, rows[3].id]);
    expect(await pruneWebhookDeliveries({ db: database.db }, 30)).toEqual({ removed: 0 });
  });
});

describe("secrets at rest (decision 057)", () => {
  const stored = async (id: number) =>
    (await database.db.select({ secret: webhookEndpoints.secret }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].secret;

  it("keeps an endpoint's secret sealed, made or rotated, and signs with it in clear", async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const { webhook, secret } = await createWebhook(ctxOf(admin), { name: "Sealed", url: receiver.url, events: ["incident.status-changed"] });
      const kept = await stored(webhook.id);
      expect(kept).toMatch(/^sealed:v1:/);
      expect(kept).not.toContain(secret.slice("whsec_".length, 20));
      const { secret: rotated } = await rotateWebhookSecret(ctxOf(admin), webhook.id);
      const keptRotated = await stored(webhook.id);
      expect(keptRotated).toMatch(/^sealed:v1:/);
      expect(keptRotated).not.toBe(kept);
      expect(keptRotated).not.toContain(rotated.slice("whsec_".length, 20));
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      const [got] = receiver.received;
      const header = got.headers[SIGNATURE_HEADER.toLowerCase()] as string;
      expect(verifySignature(rotated, header, got.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifySignature(secret, header, got.body, Math.floor(Date.now() / 1000))).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("seals the secrets stored in clear before, once, and they still sign", async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const { webhook } = await createWebhook(ctxOf(admin), { name: "Older", url: receiver.url, events: ["incident.status-changed"] });
      const plain = "whsec_written-before-sealing-0123456789abcdefghij";
      await database.db.update(webhookEndpoints).set({ secret: plain }).where(eq(webhookEndpoints.id, webhook.id));
      // Read as it is until sealed.
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      expect(verifySignature(plain, receiver.received[0].headers[SIGNATURE_HEADER.toLowerCase()] as string, receiver.received[0].body, Math.floor(Date.now() / 1000))).toBe(true);

      expect((await resealWebhookSecrets(database.db)).resealed).toBeGreaterThanOrEqual(1);
      expect(await stored(webhook.id)).toMatch(/^sealed:v1:/);
      expect((await resealWebhookSecrets(database.db)).resealed).toBe(0);
      const [left] = rowsOfPlain(
        await database.db.execute(sql`select count(*)::int as n from webhook_endpoints where secret not like 'sealed:%'`),
      );
      expect(Number(left.n)).toBe(0);
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      expect(verifySignature(plain, receiver.received[1].headers[SIGNATURE_HEADER.toLowerCase()] as string, receiver.received[1].body, Math.floor(Date.now() / 1000))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("does not post when the secret does not open (another entity's sealed value, or another key), and says why", async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const theirs = await createWebhook(ctxOf(otherAdmin), { name: "Theirs", url: receiver.url, events: ["task.done"] });
      const { webhook } = await createWebhook(ctxOf(admin), { name: "Copied", url: receiver.url, events: ["incident.status-changed"] });
      // Their sealed secret copied into our row: bound to their entity, it does not open here.
      await database.db.update(webhookEndpoints).set({ secret: await stored(theirs.webhook.id) }).where(eq(webhookEndpoints.id, webhook.id));
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      expect(receiver.received).toEqual([]);
      const [delivery] = (await listWebhookDeliveries(ctxOf(admin), webhook.id)).rows;
      expect(delivery).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: null, lastError: UNREADABLE_SECRET });
      // A new secret mends it.
      const { secret } = await rotateWebhookSecret(ctxOf(admin), webhook.id);
      await pingWebhook(ctxOf(admin), webhook.id);
      await runDeliveries();
      expect(receiver.received).toHaveLength(1);
      expect(verifySignature(secret, receiver.received[0].headers[SIGNATURE_HEADER.toLowerCase()] as string, receiver.received[0].body, Math.floor(Date.now() / 1000))).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe("changing the key that seals the secrets (decision 057)", () => {
  const setKeys = (keys: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string }) => {
    for (const name of ["SECRETS_KEY", "SECRETS_KEY_PREVIOUS"] as const) {
      if (keys[name]) process.env[name] = keys[name];
      else delete process.env[name];
    }
    delete (globalThis as Record<string, unknown>).__caretakerConfig;
  };
  const storedSecret = async (id: number) =>
    (await database.db.select({ secret: webhookEndpoints.secret }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].secret;

  it("still signs after SECRETS_KEY is set, or replaced with the old one kept as SECRETS_KEY_PREVIOUS, and seals again with the new key", async () => {
    const receiver = await startReceiver(() => 200);
    /** Pings the endpoint; true when the receiver got a delivery signed with `secret`. */
    const signs = async (id: number, secret: string) => {
      const before = receiver.received.length;
      await pingWebhook(ctxOf(admin), id);
      await runDeliveries();
      const got = receiver.received[before];
      return Boolean(got) && verifySignature(secret, got.headers[SIGNATURE_HEADER.toLowerCase()] as string, got.body, Math.floor(Date.now() / 1000));
    };
    try {
      setKeys({});
      const { webhook, secret } = await createWebhook(ctxOf(admin), { name: "Rekeyed", url: receiver.url, events: ["task.done"] });
      const underSessionSecret = await storedSecret(webhook.id);

      setKeys({ SECRETS_KEY: "a".repeat(40) });
      expect(await signs(webhook.id, secret)).toBe(true);
      expect((await resealWebhookSecrets(database.db)).resealed).toBeGreaterThanOrEqual(1);
      const underA = await storedSecret(webhook.id);
      expect(underA).not.toBe(underSessionSecret);
      expect((await resealWebhookSecrets(database.db)).resealed).toBe(0);

      setKeys({ SECRETS_KEY: "b".repeat(40), SECRETS_KEY_PREVIOUS: "a".repeat(40) });
      expect(await signs(webhook.id, secret)).toBe(true);
      await resealWebhookSecrets(database.db);
      expect(await storedSecret(webhook.id)).not.toBe(underA);
      setKeys({ SECRETS_KEY: "b".repeat(40) });
      expect(await signs(webhook.id, secret)).toBe(true);

      // A key that sealed none of it: nothing is sent, and the start-up pass leaves the value alone.
      setKeys({ SECRETS_KEY: "c".repeat(40) });
      const kept = await storedSecret(webhook.id);
      expect(await signs(webhook.id, secret)).toBe(false);
      expect((await listWebhookDeliveries(ctxOf(admin), webhook.id)).rows[0]).toMatchObject({ status: "failed", lastError: UNREADABLE_SECRET });
      expect((await resealWebhookSecrets(database.db)).unreadable).toBeGreaterThanOrEqual(1);
      expect(await storedSecret(webhook.id)).toBe(kept);
    } finally {
      setKeys({});
      await receiver.close();
    }
  });
});

const rowsOfPlain = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
