import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { initReactI18next } from "react-i18next";
import en from "~/locales/en/printing.json";
import fr from "~/locales/fr-BE/printing.json";
import nl from "~/locales/nl-BE/printing.json";
import { renderInRouter } from "#tests/render-in-router";
import { StartFields } from "./sheet-preview";

/**
 * The printing screen's start fields name the label stock the layout is made for (decision 053), so a
 * person knows which sheets to buy: Avery 3652, A4, 21 labels of 70 x 42.3 mm, in each language.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { printing: en }, "fr-BE": { printing: fr }, "nl-BE": { printing: nl } },
    defaultNS: "printing",
    interpolation: { escapeValue: false },
  });
});

const stockOf = (html: string) => html.match(/<p[^>]*data-testid="sheet-stock"[^>]*>([^<]*)<\/p>/)?.[1].replaceAll("&#x27;", "'") ?? null;

describe("StartFields: the label stock", () => {
  it.each([
    ["en", "Label sheets to buy: Avery 3652 or the same size, A4 with 21 labels of 70 x 42.3 mm (3 columns, 7 rows, no gaps between labels)."],
    ["fr-BE", "Planches d'étiquettes à acheter : Avery 3652 ou de même format, A4 avec 21 étiquettes de 70 x 42,3 mm (3 colonnes, 7 lignes, sans espace entre les étiquettes)."],
    ["nl-BE", "Te kopen etiketvellen: Avery 3652 of hetzelfde formaat, A4 met 21 etiketten van 70 x 42,3 mm (3 kolommen, 7 rijen, geen ruimte tussen de etiketten)."],
  ])("is named in %s", async (language, expected) => {
    await i18n.changeLanguage(language);
    const html = await renderInRouter(i18n, <StartFields start={{ row: 1, column: 1 }} idPrefix="t" />);
    expect(stockOf(html)).toBe(expected);
  });
});
