import { describe, expect, it } from "vitest";
import { AA_TEXT, brandColors, contrastRatio, dimmedOn, mix, parseHex, readableOn, relativeLuminance, toHex, type Rgb } from "./contrast";

const rgb = (hex: string) => parseHex(hex) as Rgb;
const ratio = (a: string, b: string) => contrastRatio(rgb(a), rgb(b));

describe("WCAG maths", () => {
  it("parses and prints hex colours", () => {
    expect(parseHex("#0F766E")).toEqual([15, 118, 110]);
    expect(parseHex("#fff")).toEqual([255, 255, 255]);
    expect(parseHex("red")).toBeNull();
    expect(parseHex("#12345")).toBeNull();
    expect(toHex([15, 118, 110])).toBe("#0f766e");
    expect(toHex([300, -4, 127.6])).toBe("#ff0080");
  });

  it("computes relative luminance and contrast like the WCAG definition", () => {
    expect(relativeLuminance(rgb("#000000"))).toBe(0);
    expect(relativeLuminance(rgb("#ffffff"))).toBe(1);
    expect(ratio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(ratio("#ffffff", "#ffffff")).toBe(1);
    // Known values: #767676 on white is the lightest grey passing AA; #777777 fails.
    expect(ratio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(ratio("#777777", "#ffffff")).toBeLessThan(AA_TEXT);
    expect(ratio("#ffffff", "#1e3a8a")).toBeCloseTo(10.36, 1);
    // Symmetric.
    expect(ratio("#0f766e", "#ffffff")).toBe(ratio("#ffffff", "#0f766e"));
  });

  it("mixes colours", () => {
    expect(mix(rgb("#000000"), rgb("#ffffff"), 0.5)).toEqual([128, 128, 128]);
    expect(mix(rgb("#102030"), rgb("#ffffff"), 0)).toEqual([16, 32, 48]);
  });
});

describe("readableOn and dimmedOn", () => {
  it("keeps a text colour that already passes", () => {
    expect(readableOn(rgb("#1e3a8a"), rgb("#ffffff"))).toEqual([255, 255, 255]);
  });

  it("adjusts a text colour that fails, just enough", () => {
    const bg = rgb("#0f766e");
    const fixed = readableOn(bg, rgb("#99f6e4"));
    expect(contrastRatio(fixed, bg)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(fixed, bg)).toBeLessThan(6); // lightened a little, not turned into white
    // Grey on mid grey: nothing close passes, black or white does.
    const grey = rgb("#777777");
    expect(contrastRatio(readableOn(grey, rgb("#888888")), grey)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it("dims only as far as AA allows", () => {
    const navy = rgb("#1e3a8a");
    const dim = dimmedOn(navy, rgb("#ffffff"));
    expect(dim).not.toEqual([255, 255, 255]);
    expect(contrastRatio(dim, navy)).toBeGreaterThanOrEqual(AA_TEXT);
    // White on teal is 5.47:1: little room, but never below 4.5.
    const teal = rgb("#0f766e");
    expect(contrastRatio(dimmedOn(teal, rgb("#ffffff")), teal)).toBeGreaterThanOrEqual(AA_TEXT);
    // Hardly any room (4.54:1): (almost) unchanged.
    const border = rgb("#767676");
    const barely = dimmedOn(border, rgb("#ffffff"));
    expect(contrastRatio(barely, border)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(barely, rgb("#ffffff"))).toBeLessThan(1.02);
  });
});

describe("brandColors", () => {
  // The teal of the bug report: white at 75 % opacity on it was 4.0:1.
  it("fixes the dimmed header text on #0f766e", () => {
    const opaque75 = toHex(mix(rgb("#ffffff"), rgb("#0f766e"), 0.25));
    expect(ratio(opaque75, "#0f766e")).toBeLessThan(AA_TEXT);
    const c = brandColors("#0f766e", "#ffffff");
    expect(c.background).toBe("#0f766e");
    expect(c.foreground).toBe("#ffffff");
    expect(ratio(c.muted, c.background)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  const samples: [string, string][] = [
    ["#0f766e", "#ffffff"],
    ["#1e3a8a", "#ffffff"],
    ["#7c2d12", "#ffffff"],
    ["#fde047", "#ffffff"], // light yellow with white text: must turn dark
    ["#ffffff", "#eeeeee"],
    ["#000000", "#111111"],
    ["#777777", "#ffffff"],
    ["#767676", "#000000"],
    ["#ff0000", "#00ff00"],
    ["#22c55e", "#f0fdf4"],
    ["#6366f1", "#e0e7ff"],
  ];
  for (const [color, text] of samples) {
    it(`gives every text >= 4.5:1 on the background and the hover colour (${color} / ${text})`, () => {
      const c = brandColors(color, text);
      expect(c.background).toBe(color);
      for (const fg of [c.foreground, c.muted]) {
        expect(ratio(fg, c.background), `${fg} on ${c.background}`).toBeGreaterThanOrEqual(AA_TEXT);
        expect(ratio(fg, c.hover), `${fg} on hover ${c.hover}`).toBeGreaterThanOrEqual(AA_TEXT);
      }
    });
  }

  it("falls back to the default colours for invalid input", () => {
    expect(brandColors("teal", "nope")).toMatchObject({ background: "#1e3a8a", foreground: "#ffffff" });
  });
});
