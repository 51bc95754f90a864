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
export const PlannedMaintenance = z.looseObject({ id, name: z.string(), maintenanceTypeId: id, startDate: z.string() }).meta({ title: "PlannedMaintenance" });
export const Task = z.looseObject({ id, plannedMaintenanceId: id, dueDate: z.string() }).meta({ title: "Task" });
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
