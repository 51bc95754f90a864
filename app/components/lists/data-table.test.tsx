import i18next from "i18next";
import type { ReactElement } from "react";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import common from "~/locales/en/common.json";
import { renderInRouter } from "#tests/render-in-router";
import type { Page } from "~/lib/list-query";
import { DataTable, listColumns } from "./data-table";
import { ListToolbar } from "./list-toolbar";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common } }, defaultNS: "common", interpolation: { escapeValue: false } });
});

const render = (element: ReactElement, url: string) => renderInRouter(i18n, element, url);

interface Row {
  id: number;
  name: string;
  city: string;
}
const column = listColumns<Row>();
const columns = [
  column.accessor("name", { header: "Name", meta: { sortKey: "name" } }),
  column.accessor("city", { header: "City", meta: { sortKey: "city" } }),
  column.display({ id: "actions", header: "Actions" }),
];
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Row ${i + 1}`, city: "Liège" }));
const page = (items: Row[], total: number, pageNumber = 1, size = 25): Page<Row> => ({ items, total, page: pageNumber, size });
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));

describe("DataTable", () => {
  it("renders sort links that keep the other parameters and marks the sorted column", async () => {
    const html = await render(
      <DataTable columns={columns} page={page(rows(2), 2)} query={{ sort: "name", dir: "asc" }} caption="Buildings" />,
      "/facilities?tab=buildings&facilityId=4&page=2",
    );
    expect(html).toMatch(/<caption class="[^"]*sr-only[^"]*">Buildings<\/caption>/);
    expect(html).toMatch(/<th[^>]*aria-sort="ascending"[^>]*>.*?Name/);
    expect(html.match(/aria-sort=/g)).toHaveLength(1);
    const links = hrefs(html);
    expect(links).toContain("/facilities?tab=buildings&facilityId=4&sort=name&dir=desc");
    expect(links).toContain("/facilities?tab=buildings&facilityId=4&sort=city&dir=asc");
    // A column without sortKey has no link.
    expect(html).toMatch(/<th[^>]*>Actions<\/th>/);
    expect(html).toContain("Row 2");
  });

  it("titles each row's phone card with the first column, or the one marked cardTitle, and labels the others", async () => {
    const cells = (html: string) => [...html.matchAll(/<td class="ui-td"([^>]*)>([^<]*)</g)].slice(0, 3).map((m) => `${m[1].trim()} ${m[2]}`);
    const first = await render(<DataTable columns={columns} page={page(rows(1), 1)} query={{ sort: "name", dir: "asc" }} caption="Rows" />, "/rows");
    expect(cells(first)).toEqual(['data-card-title="" Row 1', 'data-label="City" Liège', 'data-label="Actions" ']);
    const byName = [column.accessor("city", { header: "City" }), column.accessor("name", { header: "Name", meta: { cardTitle: true } })];
    const marked = await render(<DataTable columns={byName} page={page(rows(1), 1)} query={{ sort: "name", dir: "asc" }} caption="Rows" />, "/rows");
    expect(cells(marked)).toEqual(['data-label="City" Liège', 'data-card-title="" Row 1']);
    // Without cards, neither.
    const plain = await render(<DataTable columns={columns} page={page(rows(1), 1)} query={{ sort: "name", dir: "asc" }} caption="Rows" cards={false} />, "/rows");
    expect(plain).not.toMatch(/data-card-title|data-label/);
  });

  it("renders the pager with previous/next links and the range", async () => {
    const html = await render(
      <DataTable columns={columns} page={page(rows(25), 73, 2)} query={{ sort: "name", dir: "asc" }} caption="Buildings" />,
      "/facilities?tab=buildings&page=2&size=25",
    );
    expect(html).toContain("26–50 of 73");
    expect(html).toContain("Page 2 of 3");
    const links = hrefs(html);
    expect(links).toContain("/facilities?tab=buildings&size=25");
    expect(links).toContain("/facilities?tab=buildings&page=3&size=25");
    expect(html).toMatch(/<nav aria-label="Pagination"/);
    // The records-per-page form keeps the other parameters and offers Apply without JavaScript.
    expect(html).toMatch(/<form method="get"[^>]*>.*<input type="hidden" name="tab" value="buildings"\/>/);
    expect(html).not.toMatch(/type="hidden" name="page"/);
    expect(html).toMatch(/<select[^>]*name="size"/);
    expect(html).toContain('<option value="25" selected="">25</option>');
    expect(html).toContain(">Apply</button>");
  });

  it("disables previous on the first page and next on the last", async () => {
    const html = await render(<DataTable columns={columns} page={page(rows(3), 3)} query={{ sort: "name", dir: "asc" }} caption="Buildings" />, "/facilities");
    expect(html).toContain("Page 1 of 1");
    expect(html.match(/<span aria-disabled="true"/g)).toHaveLength(2);
    expect(html).not.toContain('rel="next"');
  });

  it("tells an empty list from a search without results, without a pager", async () => {
    const empty = await render(
      <DataTable columns={columns} page={page([], 0)} query={{ sort: "name", dir: "asc" }} caption="Buildings" emptyText="No buildings yet." />,
      "/facilities",
    );
    expect(empty).toMatch(/<td[^>]*colSpan="3"[^>]*>No buildings yet.<\/td>/i);
    expect(empty).not.toContain("Pagination");
    const noMatch = await render(
      <DataTable columns={columns} page={page([], 0)} query={{ sort: "name", dir: "asc" }} caption="Buildings" emptyText="No buildings yet." filtered />,
      "/facilities?q=zzz",
    );
    expect(noMatch).toContain("No results match your search.");
  });
});

describe("ListToolbar", () => {
  it("keeps tab, size and sort as hidden inputs, drops the page and clears search and filters", async () => {
    const html = await render(
      <ListToolbar q="north" filters={<select name="facilityId" />} actions={<a href="/add-building">Add building</a>} />,
      "/facilities?tab=buildings&q=north&facilityId=4&page=3&size=50&sort=city&dir=desc",
    );
    expect(html).toMatch(/<form method="get"[^>]*role="search"/);
    for (const [name, value] of [["tab", "buildings"], ["size", "50"], ["sort", "city"], ["dir", "desc"]]) {
      expect(html).toContain(`<input type="hidden" name="${name}" value="${value}"/>`);
    }
    expect(html).not.toMatch(/type="hidden" name="(page|q|facilityId)"/);
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="q"[^>]*value="north"/);
    expect(hrefs(html)).toContain("/facilities?tab=buildings&size=50&sort=city&dir=desc");
    expect(html).toContain("Add building");
  });

  it("shows Clear only when a search or filter is active", async () => {
    const html = await render(<ListToolbar q="" />, "/facilities?tab=buildings&q=&facilityId=");
    expect(html).not.toContain(">Clear<");
  });
  it("gives a cell template the context the table library gives: value, fallback, row, column, cell", async () => {
    interface Item {
      id: number;
      name: string | null;
    }
    const item = listColumns<Item>();
    const html = await render(
      <DataTable
        columns={[
          item.accessor("name", {
            header: "Name",
            cell: (c) => `${c.getValue() ?? "none"}|${String(c.renderValue())}|${c.row.original.id}|${c.row.id}|${c.column.id}|${c.cell.id}|${c.cell.getValue() ?? "none"}`,
          }),
          item.accessor("id", { header: "Id" }),
        ]}
        page={{ items: [{ id: 7, name: "Hall" }, { id: 8, name: null }], total: 2, page: 1, size: 25 }}
        query={{ sort: "name", dir: "asc" }}
        caption="Items"
      />,
      "/items",
    );
    expect(html).toContain(">Hall|Hall|7|7|name|7_name|Hall</td>");
    expect(html).toContain(">none|undefined|8|8|name|8_name|none</td>");
    // A column without a template shows its value.
    expect(html).toMatch(/<td[^>]*>7<\/td>/);
  });
});
