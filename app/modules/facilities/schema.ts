import { z } from "zod";
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
