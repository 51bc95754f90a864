import { z } from "zod";

/**
 * The shapes of the REST answers, for the OpenAPI document (decision 056). Each names the fields a
 * client relies on and lets others through (`looseObject`): the read models behind them are TypeScript
 * types of the queries, and the contract test checks real answers against these shapes.
 */
const id = z.number().int().positive();
const when = z.string().describe("ISO 8601 instant");

export const ErrorAnswer = z
  .object({
    code: z.string().describe("Stable error code, e.g. FACILITY_NOT_FOUND"),
    message: z.string().describe("Translated (Accept-Language or X-Language)"),
    messageKey: z.string().optional(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    fieldErrorKeys: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ title: "Error" });

export const Ok = z.object({ responseCode: z.literal(0) }).meta({ title: "Ok" });
export const Anything = z.looseObject({}).meta({ title: "Object" });
export const AnyList = z.array(z.looseObject({})).meta({ title: "ObjectList" });

export const LoginAnswer = z
  .looseObject({
    jwtToken: z.string().nullable(),
    refreshToken: z.string().nullable(),
    role: z.number().int().nullable(),
    userId: z.number().int().nullable(),
    entityId: z.number().int().nullable(),
    errorCode: z.number().int(),
  })
  .meta({ title: "LoginAnswer" });

export const Facility = z.looseObject({ id, shortId: z.number().int(), name: z.string(), description: z.string().nullable() }).meta({ title: "Facility" });
export const Building = z.looseObject({ id, shortId: z.number().int(), name: z.string(), facilityId: id }).meta({ title: "Building" });
export const Room = z.looseObject({ id, name: z.string(), floor: z.string(), buildingId: id, roomTypeId: id }).meta({ title: "Room" });
export const RoomType = z.looseObject({ id, roomTypeName: z.string(), tags: z.array(z.string()) }).meta({ title: "RoomType" });
/** An item named as a parent or a child (issue 63). */
export const RelatedEquipmentItem = z
  .looseObject({ id, equipmentName: z.string(), internalReference: z.string().nullable(), archived: z.boolean() })
  .meta({ title: "RelatedEquipmentItem" });
/** An equipment item's record (issue 63): dates are YYYY-MM-DD. */
export const EquipmentItemRecord = z
  .looseObject({
    id,
    roomId: id,
    serialNumber: z.string().nullable(),
    manufacturer: z.string().nullable(),
    model: z.string().nullable(),
    installedOn: z.string().nullable().describe("YYYY-MM-DD"),
    warrantyEndsOn: z.string().nullable().describe("YYYY-MM-DD"),
    supplier: z.string().nullable(),
    notes: z.string().nullable(),
    parentItemId: id.nullable(),
    parent: RelatedEquipmentItem.nullable(),
    children: z.array(RelatedEquipmentItem),
    files: z.array(z.looseObject({ id: z.string(), name: z.string(), url: z.string() })),
  })
  .meta({ title: "EquipmentItemRecord" });
export const EquipmentType = z.looseObject({ id, equipmentName: z.string(), categoryId: id, tags: z.array(z.looseObject({ label: z.string() })) }).meta({ title: "EquipmentType" });
export const EquipmentCategory = z.looseObject({ id, categoryName: z.string(), tags: z.array(z.string()) }).meta({ title: "EquipmentCategory" });
export const IncidentType = z.looseObject({ id }).meta({ title: "IncidentType" });
export const User = z
  .looseObject({
    id,
    name: z.string(),
    surname: z.string(),
    email: z.string(),
    role: z.number().int(),
    status: z.number().int(),
    language: z.number().int(),
    linkedObjects: z.object({ facilityIds: z.array(id), buildingIds: z.array(id) }),
  })
  .meta({ title: "User" });
export const UserRow = z.looseObject({ id, name: z.string(), surname: z.string(), email: z.string(), role: z.number().int(), status: z.number().int() }).meta({ title: "UserRow" });
export const Incident = z.looseObject({ id, shortId: z.number().int(), status: z.number().int(), title: z.string().nullable().optional() }).meta({ title: "Incident" });
/** One incident read whole (GET /api/incidents/{id}): with its service-level due times (decision 064). */
export const IncidentDetail = Incident.extend({
  responseTargetMinutes: z.number().int().nullable().describe("The response target fixed for it, in minutes of its clock; null: none"),
  responseDueAt: when.nullable().describe("When the response is due while its clock runs; null: stopped, met or no target"),
  respondedAt: when.nullable().describe("When it was first assigned or put In Progress"),
  responseMet: z.boolean().nullable().describe("Whether the response was in time; null: not yet answered or no target"),
  resolutionTargetMinutes: z.number().int().nullable(),
  resolutionDueAt: when.nullable().describe("When the resolution is due while its clock runs; null: stopped, met or no target"),
  resolvedAt: when.nullable().describe("When it was marked Done"),
  resolutionMet: z.boolean().nullable().describe("Whether it was Done in time; null: not Done or no target"),
  equipmentDown: z.boolean().describe("Its equipment was out of service because of it (decision 066)"),
  downtimeMinutes: z.number().int().nullable().describe("The downtime set by hand; null: from the report to Done"),
}).meta({ title: "IncidentDetail" });
/** The entity's currency and hourly rates (issue 62; administrators only). */
export const HourlyRates = z
  .looseObject({
    currency: z.string().describe("ISO 4217"),
    defaultRate: z.string().nullable().describe('Exact decimal, e.g. "45.00"; null: none'),
    people: z.array(z.looseObject({ id, name: z.string(), email: z.string(), rate: z.string().nullable().describe("Their own rate; null: the default") })),
  })
  .meta({ title: "HourlyRates" });
/** An incident's equipment downtime (decision 066). */
export const Downtime = z
  .looseObject({ id, shortId: z.number().int(), equipmentDown: z.boolean(), downtimeMinutes: z.number().int().nullable() })
  .meta({ title: "Downtime" });
export const IncidentChange = z
  .looseObject({ id, shortId: z.number().int(), status: z.number().int(), priority: z.number().int().nullable(), assigneeId: z.number().int().nullable() })
  .meta({ title: "IncidentChange" });
export const Entity = z.looseObject({ id, name: z.string() }).meta({ title: "Entity" });
export const MaintenanceType = z.looseObject({ id, name: z.string(), tags: z.array(z.string()) }).meta({ title: "MaintenanceType" });
/** One check of a maintenance type's inspection checklist (issue 63): kind 0 pass/fail, 1 number (its range), 2 text. */
export const MaintenanceCheck = z
  .looseObject({
    id,
    position: z.number().int(),
    kind: z.number().int(),
    label: z.string().nullable(),
    labelFr: z.string().nullable(),
    labelNl: z.string().nullable(),
    minValue: z.number().nullable(),
    maxValue: z.number().nullable(),
    photoRequired: z.boolean(),
    incidentTypeId: id.nullable(),
    priority: z.number().int(),
  })
  .meta({ title: "MaintenanceCheck" });
export const PlannedMaintenance = z.looseObject({ id, name: z.string(), maintenanceTypeId: id, startDate: z.string() }).meta({ title: "PlannedMaintenance" });
/** A task's answer to one check of its type's inspection checklist (issue 63). */
export const TaskAnswer = z
  .looseObject({
    checkId: id.nullable().describe("The check answered (null once the check was removed from the type)"),
    position: z.number().int(),
    kind: z.number().int().describe("0 pass/fail, 1 number, 2 text"),
    label: z.string().describe("The check's label as it was answered, in the language of the person who answered"),
    minValue: z.number().nullable(),
    maxValue: z.number().nullable(),
    answer: z.string().describe('"pass" or "fail", a number, or a text'),
    passed: z.boolean().nullable().describe("false: failed or out of range; null: a text"),
    photoFileId: z.string().nullable(),
    incident: z.looseObject({ id, shortId: z.number().int() }).nullable().describe("The incident the failed check opened, when the caller reaches it"),
  })
  .meta({ title: "TaskAnswer" });
export const Task = z
  .looseObject({
    id,
    plannedMaintenanceId: id,
    dueDate: z.string(),
    signedOffName: z.string().nullable().optional().describe("An inspection's sign-off: who, by name as it was then"),
    signedOffAt: when.nullable().optional().describe("An inspection's sign-off: when"),
    answers: z.array(TaskAnswer).optional().describe("An inspection's answers, in the checklist's order"),
  })
  .meta({ title: "Task" });
export const NotificationCount = z.object({ total: z.number().int(), unread: z.number().int() }).meta({ title: "NotificationCount" });
export const Notification = z.looseObject({ id, type: z.number().int(), createdAt: when }).meta({ title: "Notification" });
export const Person = z.looseObject({ id, name: z.string() }).meta({ title: "Person" });
export const Created = z.looseObject({ id }).meta({ title: "Created" });
export const CascadeCounts = z.looseObject({}).meta({ title: "CascadeCounts", description: "How many records the archive reached, by kind" });
/** A time entry of an incident (issue 62). */
export const TimeEntry = z
  .looseObject({
    id,
    person: Person,
    workedOn: z.string().describe("YYYY-MM-DD"),
    minutes: z.number().int().min(1).max(1440),
    note: z.string().nullable(),
    hourlyRate: z.string().nullable().describe("The rate captured when it was recorded, in the entity's currency (null: none, or hidden)"),
    cost: z.string().nullable().describe("minutes / 60 × hourlyRate, rounded to the cent (null: no rate, or hidden)"),
    costHidden: z.boolean().describe("A colleague's entry read by a technician: its rate and cost are not given"),
    editable: z.boolean().describe("Whether the caller may change or delete it"),
  })
  .meta({ title: "TimeEntry" });
const amount = z.string().describe('Exact decimal, e.g. "12.50"');
/** A material line of an incident (issue 62); amounts are exact decimal strings. */
export const MaterialLine = z
  .looseObject({
    id,
    description: z.string(),
    quantity: amount,
    unitCost: amount,
    total: amount.describe("quantity × unitCost, rounded to the cent"),
    addedBy: Person.nullable(),
    editable: z.boolean().describe("Whether the caller may change or delete it"),
  })
  .meta({ title: "MaterialLine" });

/** One's running clock (start and stop, issue 62); null when none runs. */
export const RunningClock = z
  .object({
    startedAt: when,
    incidentId: id.nullable().describe("The incident it runs on (null: a task)"),
    taskId: id.nullable().describe("The maintenance task it runs on (null: an incident)"),
    stoppable: z.boolean().describe("Whether the caller can still stop it there; when not (the record left their reach), starting a clock elsewhere replaces it"),
  })
  .nullable()
  .meta({ title: "RunningClock" });
export const ClockStarted = z.object({ startedAt: when }).meta({ title: "ClockStarted" });
export const ClockStopped = z
  .object({
    id: id.describe("The time entry recorded"),
    minutes: z.number().int().min(1).max(1440).describe("The elapsed minutes, rounded up"),
    capped: z.boolean().describe("The clock ran more than a day: a full day was recorded, to be corrected"),
  })
  .meta({ title: "ClockStopped" });

const minutes = z.number().nullable().describe("Clock minutes (working or calendar, the target's), one decimal; null when none");
/** One target's figures of a service-level row (issue 62). */
const ServiceLevelSide = z
  .looseObject({
    counted: z.number().int().describe("Incidents with an outcome: met in time or late, or open past due"),
    met: z.number().int().describe("Of those, met in time"),
    share: z.number().nullable().describe("met / counted, 0 to 1; null when none is counted"),
    medianMinutes: minutes,
    p90Minutes: minutes,
  })
  .meta({ title: "ServiceLevelSide" });
/** The dashboard's service levels (issue 62): per month and facility, each month over all, the period. */
export const DashboardServiceLevels = z
  .looseObject({
    hasTargets: z.boolean(),
    canSetTargets: z.boolean(),
    rows: z.array(
      z.looseObject({
        scope: z.enum(["facility", "month", "period"]),
        month: z.string().nullable().describe("YYYY-MM; null for the period"),
        facilityId: id.nullable().describe("null: incidents without a room, or a month or period row"),
        facilityName: z.string().nullable(),
        response: ServiceLevelSide,
        resolution: ServiceLevelSide,
      }),
    ),
  })
  .meta({ title: "DashboardServiceLevels" });
/** Time and costs of a group of work rows (issue 62); amounts in the entity's currency, exact decimal strings. */
const costFigures = {
  minutes: z.number().int().describe("Time recorded, in minutes"),
  labour: amount.describe("Σ minutes / 60 × the entry's captured rate, each rounded to the cent; entries without a rate left out"),
  materials: amount.describe("Σ quantity × unit cost, each rounded to the cent"),
  total: amount.describe("labour + materials"),
  unpricedEntries: z.number().int().describe("Time entries without an hourly rate (their time counted, not their cost)"),
  entries: z.number().int().describe("Time entries"),
  lines: z.number().int().describe("Material lines"),
};
export const CostFigures = z.looseObject(costFigures).meta({ title: "CostFigures" });
/**
 * The dashboard's time and costs (issue 62): the work recorded in the period (a time entry's day, a
 * material line's creation, in the entity's time zone) on the incidents and tasks in reach.
 */
export const DashboardCosts = z
  .looseObject({
    currency: z.string().describe("ISO 4217 code of every amount"),
    total: CostFigures,
    months: z.array(z.looseObject({ month: z.string().describe("YYYY-MM"), ...costFigures })).describe("Every month of the period"),
    facilities: z.array(z.looseObject({ id: id.nullable().describe("null: incidents without a room"), name: z.string().nullable(), ...costFigures })),
    buildings: z.array(z.looseObject({ id: id.nullable(), name: z.string().nullable(), facilityName: z.string().nullable(), ...costFigures })),
    types: z.array(
      z.looseObject({
        kind: z.enum(["type", "none", "maintenance"]).describe("An incident type, incidents without one, or planned maintenance tasks"),
        id: id.nullable(),
        name: z.string().nullable(),
        ...costFigures,
      }),
    ),
    rooms: z.array(z.looseObject({ id, name: z.string(), buildingName: z.string(), ...costFigures })).describe("The 10 costliest"),
    equipment: z
      .array(z.looseObject({ id, equipmentName: z.string(), internalReference: z.string().nullable(), roomName: z.string().nullable(), ...costFigures }))
      .describe("The 10 costliest equipment items"),
  })
  .meta({ title: "DashboardCosts" });
/** GET /api/dashboard: the incident figures (see the dashboard), the service levels, the time and costs. */
export const Dashboard = z
  .looseObject({
    timeZone: z.string(),
    period: z.looseObject({ from: z.string().describe("YYYY-MM-DD"), to: z.string().describe("YYYY-MM-DD"), custom: z.boolean() }),
    total: z.number().int().describe("Incidents created in the period"),
    months: z.array(z.looseObject({ month: z.string() })),
    serviceLevels: DashboardServiceLevels,
    costs: DashboardCosts,
  })
  .meta({ title: "Dashboard" });
