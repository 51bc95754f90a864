import { z } from "zod";
import { defineFields, textMax } from "~/lib/fields";
import { idField, optionalText, requiredText } from "~/lib/schema-helpers";
import type { BUILDING_ADDRESS_FIELDS } from "./constants";

/**
 * Facilities and buildings (SPEC.md sections 3, 5, 7): one shape for the forms (client and server
 * validation), the services and the REST bodies. Client-safe. Messages are i18n keys.
 */
export const FacilitySchema = z.object({
  name: requiredText(200, "facilities:validation.nameRequired"),
  description: optionalText(2000),
});
export type FacilityInput = z.input<typeof FacilitySchema>;

/** The address fields of SPEC.md section 3; all optional on a building. */
export const BuildingAddressSchema = z.object({
  streetName: optionalText(200),
  streetNumber: optionalText(20),
  suffix: optionalText(20),
  buildingFloor: optionalText(100),
  additionalInfo: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  country: optionalText(2),
});
export { BUILDING_ADDRESS_FIELDS } from "./constants";
// The list of constants.ts names exactly the address schema's fields (a type error otherwise).
type AddressField = keyof z.infer<typeof BuildingAddressSchema>;
type Listed = (typeof BUILDING_ADDRESS_FIELDS)[number];
const addressFieldsMatch: [AddressField, Listed] extends [Listed, AddressField] ? true : never = true;
void addressFieldsMatch;

export const BuildingSchema = z.object({
  name: requiredText(200, "facilities:validation.nameRequired"),
  description: optionalText(2000),
  facilityId: idField("facilities:validation.facilityRequired"),
  ...BuildingAddressSchema.shape,
});
export type BuildingInput = z.input<typeof BuildingSchema>;

/** A facility's importable fields (lib/fields.ts): the import template and values, the export's columns. */
export const FACILITY_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(FacilitySchema.shape.name), example: "Main campus" },
    description: { kind: "text", max: textMax(FacilitySchema.shape.description), example: "Headquarters and workshops" },
  },
});

const address = BuildingAddressSchema.shape;
/** A building's importable fields: its facility named (by name or short id), its address. */
export const BUILDING_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(BuildingSchema.shape.name), example: "Building A" },
    facility: { kind: "reference", required: true, reference: "facility", example: "Main campus", input: "facilityId", row: "facilityName" },
    description: { kind: "text", max: textMax(BuildingSchema.shape.description), example: "" },
    streetName: { kind: "text", max: textMax(address.streetName), example: "Rue de la Loi" },
    streetNumber: { kind: "text", max: textMax(address.streetNumber), example: "16" },
    suffix: { kind: "text", max: textMax(address.suffix), example: "" },
    buildingFloor: { kind: "text", max: textMax(address.buildingFloor), example: "" },
    additionalInfo: { kind: "text", max: textMax(address.additionalInfo), example: "" },
    postalCode: { kind: "text", max: textMax(address.postalCode), example: "1000" },
    city: { kind: "text", max: textMax(address.city), example: "Brussels" },
    country: { kind: "text", max: textMax(address.country), example: "BE" },
  },
  exportOrder: ["name", "description", "facility"],
});
