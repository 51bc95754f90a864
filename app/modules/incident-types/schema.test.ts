import { describe, expect, it } from "vitest";
import { IncidentTypeSchema } from "./schema";

describe("IncidentTypeSchema", () => {
  it("reports the missing name together with the other wrong fields", () => {
    const result = IncidentTypeSchema.safeParse({ defaultPriority: "x", checklist: [{ question: "" }] });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["nameEn", "defaultPriority", "checklist.0.question"]));
  });

  it("accepts a name in one language only", () => {
    expect(IncidentTypeSchema.safeParse({ nameNl: "Waterlek", defaultPriority: 3 }).success).toBe(true);
  });
});
