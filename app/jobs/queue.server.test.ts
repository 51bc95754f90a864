import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { createMailer } from "~/mail/mailer.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";

let database: Database;
let services: TestServices;
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-outbox-"));

beforeAll(async () => {
  database = await createTestDatabase();
  const mailer = createMailer({ from: "Caretaker <no-reply@caretaker.local>", outboxDir: outbox });
  services = await createTestServices(database, { work: true, mailer });
});

afterAll(async () => {
  await services?.close();
  await database?.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

function waitFor<T>(probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  return waitForAsync(async () => probe(), timeoutMs);
}

async function waitForAsync<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("job queue", () => {
  it("runs a queued email job through a worker into the outbox", async () => {
    const id = await services.queue.send(sendEmailJob, {
      to: "someone@example.test",
      subject: "Welcome to Caretaker",
      text: "Follow this link: http://localhost/x",
      link: "http://localhost/x",
    });
    expect(id).toMatch(/[0-9a-f-]{36}/);

    const summary = await waitFor(() => fs.readdirSync(outbox).find((f) => f.endsWith(".json")));
    const written = JSON.parse(fs.readFileSync(path.join(outbox, summary), "utf8"));
    expect(written).toMatchObject({ to: "someone@example.test", subject: "Welcome to Caretaker", link: "http://localhost/x" });
    const eml = fs.readFileSync(path.join(outbox, summary.replace(/\.json$/, ".eml")), "utf8");
    expect(eml).toContain("Subject: Welcome to Caretaker");
    expect(eml).toContain("To: someone@example.test");

    const completed = await waitForAsync(async () => {
      const [job] = await services.queue.boss.findJobs(sendEmailJob.name, { id });
      return job?.state === "completed" ? job : undefined;
    });
    expect(completed.data).toMatchObject({ to: "someone@example.test" });
  });

  it("refuses a job that is not in the registry, and a payload that does not fit its schema", async () => {
    await expect(services.queue.send({ ...sendEmailJob, name: "not-registered" }, { to: "a@b.c", subject: "x", text: "x" })).rejects.toThrow(
      /not in the registry/,
    );
    await expect(services.queue.send(sendEmailJob, { to: "", subject: "", text: "" })).rejects.toThrow();
  });
});
