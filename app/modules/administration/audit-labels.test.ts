import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "~/locales/en/administration.json";
import fr from "~/locales/fr-BE/administration.json";
import nl from "~/locales/nl-BE/administration.json";
import { auditActionKey } from "./audit-labels";

/**
 * Every action and record kind the code writes to the audit log (`audit({ action, recordType })` and the
 * `audit: { action, recordType }` options of the create verbs, read from the sources) has its label in
 * the three languages, so the audit page never shows a bare code in place of a label.
 */
const APP = path.resolve(__dirname, "../..");

function auditedInSources(): { actions: Set<string>; kinds: Set<string>; calls: number } {
  const actions = new Set<string>();
  const kinds = new Set<string>();
  let calls = 0;
  const files = (fs.readdirSync(APP, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  for (const file of files) {
    const source = fs.readFileSync(path.join(APP, file), "utf8");
    for (const match of source.matchAll(/audit(?:\(|:)\s*\{\s*action:\s*([^,]+),\s*recordType:\s*([^,]+),/g)) {
      calls++;
      for (const [, value] of match[1].matchAll(/"([^"]+)"/g)) actions.add(value);
      for (const [, value] of match[2].matchAll(/"([^"]+)"/g)) kinds.add(value);
    }
  }
  return { actions, kinds, calls };
}

const at = (tree: unknown, key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

describe("the audit page's labels", () => {
  const { actions, kinds, calls } = auditedInSources();

  it("finds the audit calls in the sources", () => {
    expect(calls).toBeGreaterThan(50);
    expect(actions).toContain("createRoom");
    expect(actions).toContain("webhook.enable"); // from a conditional
    expect(actions).toContain("archiveUser"); // written over several lines
  });

  it("has a label for every action and record kind, in English, French and Dutch", () => {
    const missing: string[] = [];
    for (const [language, tree] of [["en", en], ["fr-BE", fr], ["nl-BE", nl]] as const) {
      for (const action of actions) if (typeof at(tree, auditActionKey(action)) !== "string") missing.push(`${language} ${auditActionKey(action)}`);
      for (const kind of kinds) if (typeof tree.audit.kinds[kind as keyof typeof tree.audit.kinds] !== "string") missing.push(`${language} audit.kinds.${kind}`);
    }
    expect(missing).toEqual([]);
  });

  it("makes a dotted code a key of its own", () => {
    expect(auditActionKey("webhook.rotate-secret")).toBe("audit.actions.webhook_rotate-secret");
    expect(auditActionKey("createRoom")).toBe("audit.actions.createRoom");
  });
});
