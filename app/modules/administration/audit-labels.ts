/**
 * The translation key of an audit entry's action (`audit_log.action`, a code such as "createRoom" or
 * "webhook.rotate-secret"): `audit.actions.<code>` in the administration namespace, its dots made
 * underscores (a dot would nest the key). The audit page shows the label, with the code beside it.
 */
export function auditActionKey(action: string): `audit.actions.${string}` {
  return `audit.actions.${action.replaceAll(".", "_")}`;
}
