import { describe, expect, it } from "vitest";
import { CreateUserFormSchema as CreateUserSchema } from "./schema";
import { UpdateUserFormSchema } from "~/components/users/user-form-schema";

/** A form shows every field's error on the first submit, the links' requirement included. */
describe("the user schemas", () => {
  const errors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

  it("ask for the links together with the name, surname and email", () => {
    const empty = errors(CreateUserSchema.safeParse({ name: "", surname: "", email: "", role: 2, linkedObjects: { facilityIds: [], buildingIds: [] } }));
    expect(empty).toMatchObject({
      name: "users:validation.nameRequired",
      surname: "users:validation.surnameRequired",
      email: "users:validation.emailRequired",
      linkedObjects: "users:validation.linkRequired",
    });
    for (const schema of [UpdateUserFormSchema]) {
      expect(errors(schema.safeParse({ name: "", surname: "X", role: 1, language: 0 }))).toMatchObject({ name: "users:validation.nameRequired", linkedObjects: "users:validation.linkRequired" });
    }
  });

  it("need no links for an administrator, and accept a technician with one building", () => {
    expect(CreateUserSchema.safeParse({ name: "A", surname: "B", email: "a@b.test", role: 3 }).success).toBe(true);
    expect(CreateUserSchema.safeParse({ name: "A", surname: "B", email: "a@b.test", role: 2, linkedObjects: { buildingIds: [4] } }).success).toBe(true);
  });
});
