import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import equipment from "~/locales/en/equipment.json";
import rooms from "~/locales/en/rooms.json";
import { useErrorText } from "./zod-form";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    resources: { en: { common, equipment, rooms } },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
});

function Errors({ ns, keys }: { ns?: string[]; keys: string[] }) {
  const text = useErrorText(ns);
  return <p>{text(keys)?.join(" | ")}</p>;
}

const render = (ns: string[] | undefined, keys: string[]) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Errors ns={ns} keys={keys} />
    </I18nextProvider>,
  );

describe("useErrorText", () => {
  it("looks a plain key up in the given namespaces, then in common", () => {
    expect(render(["equipment"], ["validation.categoryRequired", "errors.file.wrongFormat"])).toBe(
      "<p>Please choose a category | Wrong format</p>",
    );
  });

  it("resolves keys with a namespace prefix as written", () => {
    expect(render(["equipment"], ["rooms:validation.noEquipment", "common:tags.tooMany"])).toBe(
      "<p>You should have at least one equipment | Could not add more than 3 tags</p>",
    );
  });
});
