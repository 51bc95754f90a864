import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "~/locales/en/administration.json";
import fr from "~/locales/fr-BE/administration.json";
import nl from "~/locales/nl-BE/administration.json";
import { AUDIT_ACTIONS, FORMER_AUDIT_ACTION_NAMES, currentAuditAction } from "~/core/audit-actions";
import { getT } from "~/i18n.server";
import { supportedLngs } from "~/i18n";
import { auditActionKey, auditActionLabel } from "./audit-labels";

/**
 * Every action the code can write to the audit log (the type of `audit({ action })` is the list of
 * core/audit-actions.ts), every name earlier versions wrote, and every record kind written
 * (`audit({ action, recordType })` and the `audit: { action, recordType }` options of the create verbs,
 * read from the sources) has its label in the three languages, so the audit page never shows a bare
 * code in place of a label.
 */
const APP = path.resolve(__dirname, "../..");

function auditedInSources(): { literals: Set<string>; kinds: Set<string>; calls: number } {
  const literals = new Set<string>();
  const kinds = new Set<string>();
  let calls = 0;
  const files = (fs.readdirSync(APP, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  for (const file of files) {
    const source = fs.readFileSync(path.join(APP, file), "utf8");
    for (const match of source.matchAll(/audit(?:\(|:)\s*\{\s*action:\s*([^,]+),\s*recordType:\s*([^,]+),/g)) {
      calls++;
      for (const [, value] of match[1].matchAll(/"([^"]+)"/g)) literals.add(value);
      for (const [, value] of match[2].matchAll(/"([^"]+)"/g)) kinds.add(value);
    }
  }
  return { literals, kinds, calls };
}

const at = (tree: unknown, key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

describe("the audit page's labels", () => {
  const { literals, kinds, calls } = auditedInSources();

  it("finds the audit calls in the sources, each naming its action by a constant", () => {
    expect(calls).toBeGreaterThan(50);
    expect(kinds).toContain("room");
    expect(kinds).toContain("user"); // written over several lines
    expect([...literals]).toEqual([]);
  });

  it("names every action <area>.<verb>, the verb in kebab-case", () => {
    expect(AUDIT_ACTIONS).toContain("facility.create");
    expect(AUDIT_ACTIONS).toContain("webhook.rotate-secret");
    expect(AUDIT_ACTIONS.filter((action) => !/^[a-z][A-Za-z]*\.[a-z]+(-[a-z]+)*$/.test(action))).toEqual([]);
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });

  it("reads the names earlier versions wrote as today's actions", () => {
    expect(currentAuditAction("createFacility")).toBe("facility.create");
    expect(currentAuditAction("createApiToken")).toBe("apiToken.create");
    expect(currentAuditAction("archiveCategory")).toBe("equipmentCategory.archive");
    expect(currentAuditAction("entity.signUp")).toBe("entity.sign-up");
    expect(currentAuditAction("webhook.enable")).toBe("webhook.enable");
    for (const former of FORMER_AUDIT_ACTION_NAMES) expect(AUDIT_ACTIONS).toContain(currentAuditAction(former));
  });

  it("has a label for every action and record kind, in English, French and Dutch", () => {
    const missing: string[] = [];
    for (const [language, tree] of [["en", en], ["fr-BE", fr], ["nl-BE", nl]] as const) {
      for (const action of AUDIT_ACTIONS) if (typeof at(tree, auditActionKey(action)) !== "string") missing.push(`${language} ${auditActionKey(action)}`);
      for (const kind of kinds) if (typeof tree.audit.kinds[kind as keyof typeof tree.audit.kinds] !== "string") missing.push(`${language} audit.kinds.${kind}`);
    }
    expect(missing).toEqual([]);
  });

  it("shows each action by its label, as written out here, and a code it does not know as Other action", () => {
    const english = getT("en", "administration");
    expect(auditActionLabel(english, currentAuditAction("createApiToken"))).toBe("API token created");
    expect(auditActionLabel(english, "printing.qr-codes")).toBe("QR codes printed");
    expect(auditActionLabel(english, "webhook.rotate-secret")).toBe("Webhook secret renewed");
    expect(auditActionLabel(english, "laterArea.some-verb")).toBe("Other action");
    expect(auditActionLabel(getT("fr-BE", "administration"), "laterArea.some-verb")).toBe("Autre action");
    expect(auditActionLabel(getT("nl-BE", "administration"), "laterArea.some-verb")).toBe("Andere actie");
  });

  it("gives every action of the list a label of its own in each language, never its code or the fallback", () => {
    const wrong: string[] = [];
    for (const language of supportedLngs) {
      const t = getT(language, "administration");
      const fallback = t("audit.unknownAction");
      for (const action of AUDIT_ACTIONS) {
        const label = auditActionLabel(t, action);
        if (!label || label === action || label === auditActionKey(action) || label === fallback) wrong.push(`${language} ${action}: ${label}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("makes a dotted code a key of its own", () => {
    expect(auditActionKey("webhook.rotate-secret")).toBe("audit.actions.webhook_rotate-secret");
    expect(auditActionKey("room.create")).toBe("audit.actions.room_create");
  });
});
