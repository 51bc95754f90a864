import { useForm } from "@conform-to/react";
import i18next from "i18next";
import type { ReactElement } from "react";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import { renderInRouter } from "#tests/render-in-router";
import { ArchiveDialog } from "./archive-dialog";
import { TagsField } from "./tags-field";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

const render = (element: ReactElement, url?: string) => renderInRouter(i18n, element, url);

function Tags({ tags }: { tags: string[] }) {
  const [form, fields] = useForm<{ tags: string[] }>({ id: "t", defaultValue: { tags } });
  return <TagsField form={form} field={fields.tags} />;
}

describe("TagsField", () => {
  it("renders one input and one remove intent per tag, and an add intent below 3 tags", async () => {
    const html = await render(<Tags tags={["north", "wing"]} />);
    expect(html).toMatch(/<input[^>]*name="tags\[0\]"[^>]*value="north"/);
    expect(html).toMatch(/<input[^>]*name="tags\[1\]"[^>]*value="wing"/);
    expect(html).toContain('aria-label="Remove tag north"');
    const intents = [...html.matchAll(/name="__intent__" value="([^"]*)"/g)].map((m) => JSON.parse(m[1].replaceAll("&quot;", '"')));
    expect(intents).toContainEqual({ type: "remove", payload: { name: "tags", index: 1 } });
    expect(intents).toContainEqual({ type: "insert", payload: { name: "tags", defaultValue: "" } });
    expect(html).toContain(">Add tag</button>");
  });

  it("hides Add tag at 3 tags", async () => {
    const html = await render(<Tags tags={["a", "b", "c"]} />);
    expect(html).not.toContain("Add tag");
  });
});

describe("ArchiveDialog", () => {
  it("is closed without ?dialog=archive", async () => {
    expect(await render(<ArchiveDialog name="Main Campus" />, "/update-facility/1")).not.toContain('role="dialog"');
  });

  it("asks for the exact name and shows the server's Wrong Name beside the field", async () => {
    const lastResult = { status: "error" as const, initialValue: { confirmName: "Main" }, error: { confirmName: ["common:archive.wrongName"] } };
    const html = await render(<ArchiveDialog name="Main Campus" lastResult={lastResult} />, "/update-facility/1?dialog=archive");
    expect(html).toContain('role="dialog"');
    expect(html).toContain("Archive Main Campus");
    expect(html).toContain('<input type="hidden" name="intent" value="archive"/>');
    expect(html).toMatch(/<input[^>]*name="confirmName"[^>]*aria-invalid="true"/);
    expect(html).toContain("Type &quot;Main Campus&quot; exactly to confirm.");
    expect(html).toContain(">Wrong Name</p>");
    // Cancel goes back to the page without the dialog; the form posts to the route, keeping ?dialog=archive
    // (so a failed post renders the dialog again).
    expect(html).toMatch(/<a[^>]*href="\/update-facility\/1"[^>]*>Cancel<\/a>/);
    expect(html).toMatch(/<form method="post" action="[^"]*\?dialog=archive"/);
  });
});
