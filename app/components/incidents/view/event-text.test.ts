import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import enIncidents from "~/locales/en/incidents.json";
import enView from "~/locales/en/incidentView.json";
import frIncidents from "~/locales/fr-BE/incidents.json";
import frView from "~/locales/fr-BE/incidentView.json";
import nlIncidents from "~/locales/nl-BE/incidents.json";
import nlView from "~/locales/nl-BE/incidentView.json";
import { type EventEntry, eventNote, eventText } from "./event-text";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: "en",
    resources: { en: { incidents: enIncidents, incidentView: enView }, "fr-BE": { incidents: frIncidents, incidentView: frView }, "nl-BE": { incidents: nlIncidents, incidentView: nlView } },
    defaultNS: "incidentView",
    interpolation: { escapeValue: false },
  });
});

const event = (over: Partial<EventEntry>): EventEntry => ({ id: 1, type: 10, actor: null, oldValue: 2, newValue: { occurrences: 3, description: "Still leaking" }, createdAt: "2026-11-25T10:00:00Z", ...over });

describe("eventText: reported again (event 10)", () => {
  it("says an occupier reported it again, with the count, in each language; staff by name", () => {
    expect(eventText(i18n.getFixedT("en"), event({}))).toBe("An occupier reported it again (3 occurrences)");
    expect(eventText(i18n.getFixedT("fr-BE"), event({}))).toBe("Un occupant l'a de nouveau signalé (3 occurrences)");
    expect(eventText(i18n.getFixedT("nl-BE"), event({}))).toBe("Opnieuw gemeld door een gebruiker van het gebouw (3 meldingen)");
    expect(eventText(i18n.getFixedT("en"), event({ actor: "Tom Tech" }))).toBe("Tom Tech reported it again (3 occurrences)");
    for (const lng of ["en", "fr-BE", "nl-BE"]) expect(eventText(i18n.getFixedT(lng), event({}))).not.toMatch(/changed the incident|a modifié|wijzigde/);
  });

  it("keeps the later reporter's words as the event's note", () => {
    expect(eventNote(event({}))).toBe("Still leaking");
    expect(eventNote(event({ newValue: { occurrences: 3 } }))).toBeNull();
    expect(eventNote(event({ type: 8 }))).toBeNull();
  });
});
