import { AUDIT_ACTIONS } from "~/core/audit-actions";

/**
 * The translation key of an audit entry's action (`audit_log.action`, a code such as "room.create" or
 * "webhook.rotate-secret"): `audit.actions.<code>` in the administration namespace, its dots made
 * underscores (a dot would nest the key).
 */
export function auditActionKey(action: string): `audit.actions.${string}` {
  return `audit.actions.${action.replaceAll(".", "_")}`;
}

const KNOWN: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

/** Whether the audit page has a label of its own for an action (one of core/audit-actions.ts). */
export function isKnownAuditAction(action: string): boolean {
  return KNOWN.has(action);
}

/**
 * The label the audit page shows for an action (as `listAuditRows` reads it: a former name already
 * read as today's action), with `t` of the administration namespace: its own label, or, for a code
 * the list does not know, the translated "Other action" (never the bare code).
 */
export function auditActionLabel(t: (key: string) => string, action: string): string {
  return isKnownAuditAction(action) ? t(auditActionKey(action)) : t("administration:audit.unknownAction");
}
