import { describe, expect, it } from "vitest";
import { cn } from "./utils";

describe("cn", () => {
  it("joins conditionals and lets the later utility win", () => {
    const hide = (flag: boolean) => flag && "hidden";
    expect(cn("px-2 py-1", hide(false), { "text-sm": true }, "px-4")).toBe("py-1 text-sm px-4");
    expect(cn("h-9 w-full rounded-md border", "h-8 rounded-full")).toBe("w-full border h-8 rounded-full");
    expect(cn("flex items-center", "md:hidden", "hidden")).toBe("items-center md:hidden hidden");
    expect(cn(["gap-2", ["gap-4"]], undefined, null, false)).toBe("gap-4");
  });

  it("tells the theme's colours from sizes", () => {
    expect(cn("text-sm text-muted-foreground", "text-destructive")).toBe("text-sm text-destructive");
    expect(cn("text-success-text", "text-lg")).toBe("text-success-text text-lg");
    expect(cn("bg-primary hover:bg-primary-hover", "bg-secondary")).toBe("hover:bg-primary-hover bg-secondary");
    expect(cn("ring-2 ring-ring ring-offset-2 ring-offset-background", "ring-destructive")).toBe("ring-2 ring-offset-2 ring-offset-background ring-destructive");
    expect(cn("border border-input", "border-2 border-destructive")).toBe("border-2 border-destructive");
  });

  it("keeps what a later class does not replace", () => {
    expect(cn("p-4 px-2")).toBe("p-4 px-2");
    expect(cn("pl-2 px-4")).toBe("px-4");
    expect(cn("size-4 h-6")).toBe("size-4 h-6");
    expect(cn("w-4 h-4 size-6")).toBe("size-6");
    expect(cn("[&>svg]:size-4 [&>svg]:size-5 hover:bg-muted bg-primary")).toBe("[&>svg]:size-5 hover:bg-muted bg-primary");
    expect(cn("font-semibold font-mono font-bold")).toBe("font-mono font-bold");
    expect(cn("overflow-hidden overflow-x-auto overflow-auto")).toBe("overflow-auto");
    expect(cn("leading-6 text-lg")).toBe("text-lg");
  });

  it("keeps the app's own component classes and unknown words as written", () => {
    expect(cn("ui-btn ui-btn-primary", "ui-btn-secondary h-8")).toBe("ui-btn ui-btn-primary ui-btn-secondary h-8");
    expect(cn("foo foo bar")).toBe("foo foo bar");
  });
});
