import { describe, expect, it } from "vitest";
import { answersByReport, answerText } from "./checklist-answers";

const a = (position: number, reportedAt: string, answer: string | null, contentType = 0) => ({ position, question: `Q${position}`, contentType, answer, reportedAt });

describe("checklist answers", () => {
  it("are grouped by report, oldest first, in question order", () => {
    const grouped = answersByReport([a(1, "2026-11-29T10:00:00Z", "no"), a(0, "2026-11-29T09:00:00Z", "yes"), a(0, "2026-11-29T10:00:00Z", "yes"), a(1, "2026-11-29T09:00:00Z", "no")]);
    expect(grouped.map((r) => [r.reportedAt, r.answers.map((x) => x.position)])).toEqual([
      ["2026-11-29T09:00:00Z", [0, 1]],
      ["2026-11-29T10:00:00Z", [0, 1]],
    ]);
  });

  it("say yes and no in the reader's language and numbers in their notation", () => {
    const words = { yes: "Oui", no: "Non" };
    expect(answerText(a(0, "", "yes"), words, "fr-BE")).toBe("Oui");
    expect(answerText(a(0, "", "no"), words, "fr-BE")).toBe("Non");
    expect(answerText(a(0, "", "1234.5", 2), words, "fr-BE")).toBe("1\u202f234,5");
    expect(answerText(a(0, "", "3,5", 2), words, "nl-BE")).toBe("3,5");
    expect(answerText(a(0, "", "free text", 1), words, "en")).toBe("free text");
    expect(answerText(a(0, "", null), words, "en")).toBeNull();
  });
});
