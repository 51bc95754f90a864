/** The address fields of a building (SPEC.md section 3), without zod for the form (decision 021); `schema.ts` checks the list. */
export const BUILDING_ADDRESS_FIELDS = ["streetName", "streetNumber", "suffix", "buildingFloor", "additionalInfo", "postalCode", "city", "country"] as const;
