import fs from "node:fs";
import path from "node:path";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { cn, mergeClasses } from "./utils";

/** Every class token written in the app's components and routes (className strings and cva lists). */
function appClassTokens(): string[] {
  const tokens = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".tsx") && !entry.name.includes(".test.")) {
        const text = fs.readFileSync(full, "utf8");
        const ui = full.includes(`${path.sep}ui${path.sep}`);
        for (const match of text.matchAll(ui ? /"([^"\n]*)"/g : /className="([^"\n]*)"/g)) {
          const words = match[1].split(/\s+/).filter(Boolean);
          // A string of utilities: every word looks like a Tailwind class.
          if (words.length && words.every((w) => /^[!*&>[\]a-z0-9:_/.%()#'=-]+!?$/.test(w) && /[a-z]/.test(w))) {
            for (const w of words) if (/-|^(flex|grid|block|hidden|border|rounded|shadow|underline|truncate|relative|absolute|fixed|sticky|inline)$/.test(w)) tokens.add(w);
          }
        }
      }
    }
  };
  walk(path.resolve("app/components"));
  walk(path.resolve("app/routes"));
  return [...tokens].sort();
}

describe("cn", () => {
  it("joins conditionals and lets the later utility win", () => {
    const hide = (flag: boolean) => flag && "hidden";
    expect(cn("px-2 py-1", hide(false), { "text-sm": true }, "px-4")).toBe("py-1 text-sm px-4");
    expect(cn("h-9 w-full rounded-md border", "h-8 rounded-full")).toBe("w-full border h-8 rounded-full");
    expect(cn("text-sm text-muted-foreground", "text-destructive")).toBe("text-sm text-destructive");
    expect(cn("flex items-center", "md:hidden", "hidden")).toBe("items-center md:hidden hidden");
  });

  it("keeps what a later class does not replace", () => {
    expect(mergeClasses("p-4 px-2")).toBe("p-4 px-2");
    expect(mergeClasses("pl-2 px-4")).toBe("px-4");
    expect(mergeClasses("size-4 h-6")).toBe("size-4 h-6");
    expect(mergeClasses("w-4 h-4 size-6")).toBe("size-6");
    expect(mergeClasses("[&>svg]:size-4 [&>svg]:size-5 hover:bg-muted bg-primary")).toBe("[&>svg]:size-5 hover:bg-muted bg-primary");
    expect(mergeClasses("font-semibold font-mono font-bold")).toBe("font-mono font-bold");
    expect(mergeClasses("border border-input border-2 border-destructive")).toBe("border-2 border-destructive");
    expect(mergeClasses("overflow-hidden overflow-x-auto overflow-auto")).toBe("overflow-auto");
    expect(mergeClasses("leading-6 text-lg")).toBe("text-lg");
    expect(mergeClasses("foo foo bar")).toBe("foo bar");
  });

  it("agrees with tailwind-merge on every pair of the app's own utilities", () => {
    const tokens = appClassTokens();
    expect(tokens.length).toBeGreaterThan(150);
    const disagreements: string[] = [];
    for (const a of tokens) {
      for (const b of tokens) {
        if (a === b) continue;
        const input = `${a} ${b}`;
        if (mergeClasses(input) !== twMerge(input)) disagreements.push(`"${input}": ours "${mergeClasses(input)}", tailwind-merge "${twMerge(input)}"`);
      }
    }
    expect(disagreements.slice(0, 400)).toEqual([]);
    // Every pair of a few hundred tokens: seconds on a loaded machine.
  }, 30_000);
});
