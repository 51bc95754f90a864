import * as React from "react";
import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
// Remix's <Link> needs a router context; @remix-run/testing is not installed,
// so use react-router-dom's StaticRouter (a dependency of @remix-run/react).
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";

import { Alert, Button, buttonVariants, Dialog, dialogHref, Field, fieldControlProps, Input, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, TabLink, Tabs, Toaster } from "./index";

function render(ui: React.ReactElement, url = "/") {
  return renderToStaticMarkup(<StaticRouter location={url}>{ui}</StaticRouter>);
}

describe("Field", () => {
  it("renders errors with a linked id and wires the control via aria-describedby", () => {
    const errors = ["Email is required", "Must be a valid email"];
    const html = render(
      <Field label="Email" htmlFor="email" errors={errors} description="We never share it">
        <Input
          name="email"
          {...fieldControlProps("email", { errors, description: true })}
        />
      </Field>,
    );

    expect(html).toContain('<label class="');
    expect(html).toMatch(/<label[^>]*for="email"/);
    expect(html).toMatch(/<div id="email-error"[^>]*class="[^"]*text-destructive/);
    expect(html).toContain("Email is required");
    expect(html).toContain("Must be a valid email");
    expect(html).toContain('id="email-description"');
    expect(html).toMatch(/<input[^>]*id="email"/);
    expect(html).toMatch(/<input[^>]*aria-invalid="true"/);
    expect(html).toMatch(
      /<input[^>]*aria-describedby="email-description email-error"/,
    );
  });

  it("renders no error container without errors", () => {
    const html = render(
      <Field label="Name" htmlFor="name" errors={[]}>
        <Input {...fieldControlProps("name")} name="name" />
      </Field>,
    );
    expect(html).not.toContain("name-error");
    expect(html).not.toContain("aria-invalid=");
    expect(html).not.toContain("aria-describedby=");
  });
});

describe("Dialog", () => {
  it("renders nothing when closed", () => {
    const html = render(
      <Dialog open={false} closeTo="/assets" title="New asset">
        body
      </Dialog>,
    );
    expect(html).toBe("");
  });

  it("renders an accessible modal dialog when open", () => {
    const html = render(
      <Dialog
        open
        id="new-asset"
        closeTo="/assets"
        title="New asset"
        description="Add equipment to this site"
        footer={<Button>Save</Button>}
      >
        <p>Body</p>
      </Dialog>,
      "/assets?dialog=new-asset",
    );
    expect(html).toMatch(/role="dialog"/);
    expect(html).toMatch(/aria-modal="true"/);
    expect(html).toMatch(/aria-labelledby="new-asset-title"/);
    expect(html).toMatch(/<h2 id="new-asset-title"[^>]*>New asset<\/h2>/);
    expect(html).toMatch(/aria-describedby="new-asset-description"/);
    expect(html).toMatch(/<a[^>]*aria-label="Close"[^>]*href="\/assets"|<a[^>]*href="\/assets"[^>]*aria-label="Close"/);
    expect(html).toContain("<p>Body</p>");
    expect(html).toContain(">Save</button>");
  });

  it("builds open/close hrefs that keep other search params", () => {
    const location = { pathname: "/assets", search: "?page=2" };
    expect(dialogHref(location, "new")).toBe("/assets?page=2&dialog=new");
    expect(
      dialogHref({ pathname: "/assets", search: "?page=2&dialog=new" }, null),
    ).toBe("/assets?page=2");
    expect(dialogHref({ pathname: "/assets", search: "?dialog=new" }, null)).toBe(
      "/assets",
    );
  });
});

describe("Button", () => {
  const stylesheet = readFileSync(new URL("../../styles/tailwind.css", import.meta.url), "utf8");
  const variants = ["default", "secondary", "outline", "ghost", "destructive", "link"] as const;
  const sizes = ["default", "sm", "lg", "icon"] as const;

  it("produces different classes per variant and size, each one a class of the stylesheet", () => {
    const seen = new Set<string>();
    for (const variant of variants) {
      for (const size of sizes) {
        const classes = buttonVariants({ variant, size });
        seen.add(classes);
        for (const name of classes.split(" ")) expect(stylesheet, name).toMatch(new RegExp(`\\.${name} \\{`));
      }
    }
    expect(seen.size).toBe(variants.length * sizes.length);
  });

  it("keeps a className passed to it, after the component classes", () => {
    const html = renderToStaticMarkup(
      <Button type="submit" className="px-8">
        Save
      </Button>,
    );
    expect(html).toMatch(/type="submit"/);
    expect(html).toContain('class="ui-btn ui-btn-primary ui-btn-md px-8"');
  });
});

describe("Table", () => {
  it("draws rows and cells with the stylesheet's component classes", () => {
    const stylesheet = readFileSync(new URL("../../styles/tailwind.css", import.meta.url), "utf8");
    const html = renderToStaticMarkup(
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="text-right">Count</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow>
            <TableCell>3</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    for (const name of ["ui-tr", "ui-th", "ui-td"]) {
      expect(html).toContain(name);
      expect(stylesheet).toMatch(new RegExp(`\\.${name} \\{`));
    }
    expect(html).toContain('class="ui-th text-right"');
  });
});

describe("Tabs", () => {
  it("marks only the active link with aria-current=page", () => {
    const html = render(
      <Tabs label="Asset sections">
        <TabLink to="/assets/1" active>
          Overview
        </TabLink>
        <TabLink to="/assets/1/history">History</TabLink>
      </Tabs>,
      "/assets/1",
    );
    expect(html).toMatch(/<nav aria-label="Asset sections"/);
    const links = html.match(/<a [^>]*>[^<]*<\/a>/g) ?? [];
    expect(links).toHaveLength(2);
    expect(links[0]).toContain('aria-current="page"');
    expect(links[0]).toContain('href="/assets/1"');
    expect(links[0]).toContain(">Overview<");
    expect(links[1]).not.toContain("aria-current");
    expect(links[1]).toContain('href="/assets/1/history"');
  });
});

describe("Toaster and Alert", () => {
  it("renders server-provided toasts in a polite live region without a close button", () => {
    const html = renderToStaticMarkup(
      <Toaster
        toasts={[
          { id: "1", type: "success", title: "Saved", description: "Asset updated" },
          { id: "2", type: "error", title: "Could not delete" },
        ]}
      />,
    );
    expect(html).toMatch(/role="status"/);
    expect(html).toMatch(/aria-live="polite"/);
    expect(html).toContain("Saved");
    expect(html).toContain("Asset updated");
    expect(html).toContain('Error: </span><span data-refusal="">Could not delete');
    // The dismiss button only appears once hydrated (JS on).
    expect(html).not.toContain("<button");
  });

  it("renders a destructive alert as role=alert", () => {
    const html = renderToStaticMarkup(
      <Alert variant="destructive">User session expired</Alert>,
    );
    expect(html).toMatch(/role="alert"/);
    expect(html).toContain("text-destructive");
  });
});
