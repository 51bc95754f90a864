import { describe, expect, it } from "vitest";
import { type ClickLike, inAppTarget } from "./link-area";

const here = "https://caretaker.test/facilities?tab=rooms";

function anchor(href: string, attributes: Record<string, string> = {}) {
  return {
    href: new URL(href, here).href,
    target: attributes.target ?? "",
    hasAttribute: (name: string) => name in attributes,
  };
}

function click(link: ReturnType<typeof anchor> | null, overrides: Partial<ClickLike> = {}, inside = true): ClickLike {
  return {
    defaultPrevented: false,
    button: 0,
    metaKey: false,
    altKey: false,
    ctrlKey: false,
    shiftKey: false,
    target: { closest: () => link },
    currentTarget: { contains: () => inside },
    ...overrides,
  };
}

describe("inAppTarget", () => {
  it("keeps a plain click on a same-site link in the app, with its query and fragment", () => {
    expect(inAppTarget(click(anchor("/incidents?status=0&view=table#top")), here)).toEqual({ to: "/incidents?status=0&view=table#top", preventScrollReset: false });
    expect(inAppTarget(click(anchor("?tab=buildings", { "data-prevent-scroll-reset": "" })), here)).toEqual({ to: "/facilities?tab=buildings", preventScrollReset: true });
  });

  it("leaves new-tab, modified, other-button and already handled clicks to the browser", () => {
    const link = anchor("/incidents");
    for (const overrides of [{ metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }, { defaultPrevented: true }]) {
      expect(inAppTarget(click(link, overrides), here)).toBeNull();
    }
  });

  it("leaves other sites, targets, downloads and full reloads to the browser", () => {
    expect(inAppTarget(click(anchor("https://elsewhere.test/incidents")), here)).toBeNull();
    expect(inAppTarget(click(anchor("http://caretaker.test/incidents")), here)).toBeNull();
    expect(inAppTarget(click(anchor("/dashboard.csv", { download: "" })), here)).toBeNull();
    expect(inAppTarget(click(anchor("/incidents", { target: "_blank" })), here)).toBeNull();
    expect(inAppTarget(click(anchor("/incidents", { target: "_self" })), here)).toEqual({ to: "/incidents", preventScrollReset: false });
    expect(inAppTarget(click(anchor("/logout", { "data-reload-document": "" })), here)).toBeNull();
  });

  it("ignores clicks that are not on a link of the area", () => {
    expect(inAppTarget(click(null), here)).toBeNull();
    expect(inAppTarget(click(anchor("/incidents"), {}, false), here)).toBeNull();
    expect(inAppTarget({ ...click(null), target: null }, here)).toBeNull();
  });
});
