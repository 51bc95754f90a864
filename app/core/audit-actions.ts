/**
 * Every action the code writes to the audit log (`audit_log.action`), named `<area>.<verb>`: the area is
 * the kind of record it concerns (as `recordType`), the verb kebab-case. Verbs write these constants,
 * never a string of their own, so the type `AuditAction` is the whole list and the audit page has a label
 * for each (tested in administration/audit-labels.test.ts).
 */
export const AUDIT = {
  account: {
    update: "account.update",
    changePassword: "account.change-password",
    resetPassword: "account.reset-password",
    verifyEmail: "account.verify-email",
  },
  apiToken: { create: "apiToken.create", revoke: "apiToken.revoke" },
  building: { create: "building.create", update: "building.update", archive: "building.archive" },
  entity: { signUp: "entity.sign-up", update: "entity.update", updateExplanatorySticker: "entity.update-explanatory-sticker" },
  equipmentCategory: { create: "equipmentCategory.create", update: "equipmentCategory.update", archive: "equipmentCategory.archive" },
  equipmentItem: { create: "equipmentItem.create", update: "equipmentItem.update" },
  equipmentType: {
    create: "equipmentType.create",
    update: "equipmentType.update",
    archive: "equipmentType.archive",
    addTag: "equipmentType.add-tag",
    removeTag: "equipmentType.remove-tag",
  },
  export: { start: "export.start" },
  facility: { create: "facility.create", update: "facility.update", archive: "facility.archive" },
  import: { start: "import.start" },
  incident: { setDowntime: "incident.set-downtime" },
  incidentType: { create: "incidentType.create", update: "incidentType.update", archive: "incidentType.archive" },
  materialLine: { add: "materialLine.add", update: "materialLine.update", delete: "materialLine.delete" },
  maintenanceType: {
    create: "maintenanceType.create",
    update: "maintenanceType.update",
    archive: "maintenanceType.archive",
    addCheck: "maintenanceType.add-check",
    updateCheck: "maintenanceType.update-check",
    removeCheck: "maintenanceType.remove-check",
  },
  plannedMaintenance: { create: "plannedMaintenance.create", update: "plannedMaintenance.update", archive: "plannedMaintenance.archive" },
  rate: { set: "rate.set" },
  printing: { qrCodes: "printing.qr-codes", calibration: "printing.calibration" },
  report: { submit: "report.submit" },
  room: { create: "room.create", update: "room.update", archive: "room.archive" },
  roomType: { create: "roomType.create", update: "roomType.update", remove: "roomType.remove" },
  serviceLevel: {
    setWorkingWeek: "serviceLevel.set-working-week",
    addClosedDay: "serviceLevel.add-closed-day",
    removeClosedDay: "serviceLevel.remove-closed-day",
    addPublicHolidays: "serviceLevel.add-public-holidays",
    setTargets: "serviceLevel.set-targets",
    setWarningLead: "serviceLevel.set-warning-lead",
  },
  timeEntry: { record: "timeEntry.record", update: "timeEntry.update", delete: "timeEntry.delete", startClock: "timeEntry.start-clock" },
  user: {
    create: "user.create",
    update: "user.update",
    setStatus: "user.set-status",
    resendInvitation: "user.resend-invitation",
    archive: "user.archive",
  },
  webhook: {
    create: "webhook.create",
    update: "webhook.update",
    enable: "webhook.enable",
    disable: "webhook.disable",
    delete: "webhook.delete",
    rotateSecret: "webhook.rotate-secret",
  },
} as const;

type Areas = typeof AUDIT;
export type AuditAction = { [A in keyof Areas]: Areas[A][keyof Areas[A]] }[keyof Areas];

/** Every action, as a list (the audit page's labels are tested against it). */
export const AUDIT_ACTIONS: readonly AuditAction[] = Object.values(AUDIT).flatMap((verbs) => Object.values(verbs) as AuditAction[]);

/** The actions a user's history shows (users/queries.server.ts `listUserHistory`, the user page). */
export const USER_HISTORY_ACTIONS: readonly AuditAction[] = [AUDIT.user.create, AUDIT.user.update, AUDIT.user.setStatus, AUDIT.user.resendInvitation, AUDIT.user.archive, AUDIT.account.resetPassword];

/**
 * The names earlier versions wrote (a verb's function name) and the action each is now. Rows already in
 * the log keep their stored name; the audit history reads them through this table, so no migration.
 */
const FORMER_ACTIONS: Readonly<Record<string, AuditAction>> = {
  addEquipmentTypeTag: AUDIT.equipmentType.addTag,
  archiveBuilding: AUDIT.building.archive,
  archiveCategory: AUDIT.equipmentCategory.archive,
  archiveEquipmentType: AUDIT.equipmentType.archive,
  archiveFacility: AUDIT.facility.archive,
  archiveIncidentType: AUDIT.incidentType.archive,
  archiveMaintenanceType: AUDIT.maintenanceType.archive,
  archivePlannedMaintenance: AUDIT.plannedMaintenance.archive,
  archiveRoom: AUDIT.room.archive,
  archiveUser: AUDIT.user.archive,
  changePassword: AUDIT.account.changePassword,
  createApiToken: AUDIT.apiToken.create,
  createBuilding: AUDIT.building.create,
  createCategory: AUDIT.equipmentCategory.create,
  createEquipmentType: AUDIT.equipmentType.create,
  createFacility: AUDIT.facility.create,
  createIncidentType: AUDIT.incidentType.create,
  createMaintenanceType: AUDIT.maintenanceType.create,
  createPlannedMaintenance: AUDIT.plannedMaintenance.create,
  createRoom: AUDIT.room.create,
  createRoomType: AUDIT.roomType.create,
  createUser: AUDIT.user.create,
  "entity.signUp": AUDIT.entity.signUp,
  removeEquipmentTypeTag: AUDIT.equipmentType.removeTag,
  removeRoomType: AUDIT.roomType.remove,
  resendInvitation: AUDIT.user.resendInvitation,
  resetPassword: AUDIT.account.resetPassword,
  revokeApiToken: AUDIT.apiToken.revoke,
  setUserStatus: AUDIT.user.setStatus,
  startImport: AUDIT.import.start,
  updateAccount: AUDIT.account.update,
  updateBuilding: AUDIT.building.update,
  updateCategory: AUDIT.equipmentCategory.update,
  updateEntity: AUDIT.entity.update,
  updateEquipmentType: AUDIT.equipmentType.update,
  updateExplanatorySticker: AUDIT.entity.updateExplanatorySticker,
  updateFacility: AUDIT.facility.update,
  updateIncidentType: AUDIT.incidentType.update,
  updateMaintenanceType: AUDIT.maintenanceType.update,
  updatePlannedMaintenance: AUDIT.plannedMaintenance.update,
  updateRoom: AUDIT.room.update,
  updateRoomType: AUDIT.roomType.update,
  updateUser: AUDIT.user.update,
  verifyEmail: AUDIT.account.verifyEmail,
};

/** The current name of a stored action: a former name read as the action it is, any other as stored. */
export function currentAuditAction(stored: string): string {
  return FORMER_ACTIONS[stored] ?? stored;
}

/** The former names, for the translation test and the reading test. */
export const FORMER_AUDIT_ACTION_NAMES: readonly string[] = Object.keys(FORMER_ACTIONS);

/** The names rows of these actions may be stored under (the action and its former names), to filter on. */
export function storedAuditNames(actions: readonly AuditAction[]): string[] {
  return [...actions, ...FORMER_AUDIT_ACTION_NAMES.filter((former) => actions.includes(FORMER_ACTIONS[former]))];
}
