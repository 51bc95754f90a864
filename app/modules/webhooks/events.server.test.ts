import { describe, expect, it } from "vitest";
import type { ChangeDefinition } from "~/core/changes.server";
import { WEBHOOK_EVENTS } from "./events";

/**
 * The change definitions are the source of webhook events (`webhook: true`); `WEBHOOK_EVENTS` is the
 * browser's copy, for the form. Every area's changes.server.ts is read, so a change newly marked, or a
 * mark removed, without the copy following fails here.
 */
const modules = import.meta.glob<Record<string, unknown>>("/app/modules/*/changes.server.ts", { eager: true });

function definitions(): ChangeDefinition[] {
  return Object.values(modules).flatMap((exports) =>
    Object.values(exports).filter((value): value is ChangeDefinition => typeof value === "object" && value !== null && "type" in value && "payload" in value),
  );
}

describe("webhook events", () => {
  it("reads the change definitions of every area", () => {
    const types = definitions().map((change) => change.type);
    expect(types).toContain("incident.created");
    expect(types).toContain("webhook.disabled");
    expect(types).toContain("user.deactivated");
  });

  it("are exactly the changes marked for webhooks", () => {
    const marked = definitions()
      .filter((change) => change.webhook)
      .map((change) => change.type);
    expect([...marked].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    expect(marked.sort()).toEqual(["export.finished", "import.finished", "incident.assigned", "incident.commented", "incident.created", "incident.service-level-alert", "incident.status-changed", "task.done"]);
  });
});
