import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMailer } from "~/mail/mailer.server";

const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-outbox-"));
afterAll(() => fs.rmSync(outbox, { recursive: true, force: true }));

describe("the local outbox", () => {
  it("shows a mail whole or not at all to whoever reads it while mails are written", async () => {
    const mailer = createMailer({ from: "Caretaker <no-reply@caretaker.local>", outboxDir: outbox });
    const text = "A long line of a mail.\n".repeat(20_000);
    let writing = true;
    let reads = 0;
    const broken: string[] = [];
    const reader = (async () => {
      while (writing) {
        for (const file of fs.readdirSync(outbox).filter((f) => f.endsWith(".json"))) {
          try {
            JSON.parse(fs.readFileSync(path.join(outbox, file), "utf8"));
            reads++;
          } catch {
            broken.push(file);
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(Array.from({ length: 30 }, (_, i) => mailer.send({ to: `person${i}@example.test`, subject: `Mail ${i}`, text })));
    // The reader reads once more before it stops: on a busy machine the last writes can all end between
    // two of its turns, and it must have read something for the test to mean anything.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    writing = false;
    await reader;
    expect(broken).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    const files = fs.readdirSync(outbox);
    expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(30);
    expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(30);
    expect(files.filter((f) => f.endsWith(".partial"))).toEqual([]);
  });
});
