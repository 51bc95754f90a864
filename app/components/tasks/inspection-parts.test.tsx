import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { renderInRouter } from "#tests/render-in-router";
import { resources } from "~/i18n.server";
import { TimeZoneProvider } from "~/lib/use-dates";
import { ChecklistEditor } from "~/components/maintenance/checklist-editor";
import { ChecklistFields, InspectionAnswers } from "./inspection-parts";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "nl-BE", resources, defaultNS: "common", interpolation: { escapeValue: false } });
});

const inRouter = (element: React.ReactElement) => renderInRouter(i18n, <TimeZoneProvider value="Europe/Brussels">{element}</TimeZoneProvider>);

describe("the inspection's parts, in Dutch", () => {
  it("asks each check as a plain form field, the refused answers kept and the errors beside them", async () => {
    const html = await inRouter(
      <ChecklistFields
        taskId={7}
        checks={[
          { id: 1, kind: 0, label: "Zegel intact", minValue: null, maxValue: null, photoRequired: true },
          { id: 2, kind: 1, label: "Druk (bar)", minValue: 1.5, maxValue: 2.5, photoRequired: false },
        ]}
        values={{ checks: { "1": "fail" } }}
        errors={{ "checks.2": ["maintenance:checks.validation.answerRequired"] }}
      />,
    );
    expect(html).toMatch(/<input type="radio" name="checks\.1"[^>]*checked=""[^>]*value="fail"\/>/);
    expect(html).not.toMatch(/<input type="radio" name="checks\.1"[^>]*checked=""[^>]*value="pass"\/>/);
    for (const text of ['name="checkPhotos.1"', "Foto (verplicht)", "Toegelaten: 1.5 tot 2.5", "Beantwoord dit controlepunt"]) expect(html).toContain(text);
  });

  it("shows a done inspection's failed check with its incident, and the sign-off", async () => {
    const html = await inRouter(
      <InspectionAnswers
        answers={[{ checkId: 1, position: 0, kind: 0, label: "Zegel intact", minValue: null, maxValue: null, answer: "fail", passed: false, photoFileId: null, incident: { id: 40, shortId: 12 } }]}
        signedOff={{ name: "Tom Tech", at: "2027-03-01T09:30:00Z" }}
      />,
    );
    for (const text of ["Zegel intact", "Mislukt", 'href="/incident/40"', "Geopend incident #12", "Afgetekend door Tom Tech"]) expect(html).toContain(text);
  });

  it("edits a type's checks with one plain form each and one to add", async () => {
    const html = await inRouter(
      <ChecklistEditor
        checks={[{ id: 3, position: 0, kind: 1, label: null, labelFr: null, labelNl: "Druk", minValue: 1, maxValue: 2, photoRequired: false, incidentTypeId: 9, priority: 2 }]}
        incidentTypes={[{ id: 9, name: "Lek" }]}
        results={undefined}
      />,
    );
    expect(html.match(/<form/g)).toHaveLength(2);
    for (const intent of ["update-check", "remove-check", "add-check"]) expect(html).toContain(`value="${intent}"`);
    expect(html).toMatch(/id="check-3-labelNl" name="labelNl"[^>]*value="Druk"/);
    expect(html).toContain("Controlepunt toevoegen");
  });
});
