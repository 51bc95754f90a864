import { describe, expect, it } from "vitest";
import { ACCEPTED, imageSize, sniff } from "./sniff";
import { pngBytes } from "#tests/factories/files";

describe("content sniffing", () => {
  it("recognises an image by its bytes whatever its name", () => {
    expect(sniff(pngBytes(4, 4), "holiday.pdf")?.mime).toBe("image/png");
    expect(sniff(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), "x")?.mime).toBe("image/jpeg");
    expect(sniff(new TextEncoder().encode("%PDF-1.7\n..."), "a.png")?.mime).toBe("application/pdf");
  });

  it("rejects a script renamed to an image and unknown binaries", () => {
    expect(sniff(new TextEncoder().encode("<script>alert(1)</script>"), "evil.png")).toBeNull();
    expect(sniff(new TextEncoder().encode("<svg onload=alert(1)>"), "logo.svg")).toBeNull();
    expect(sniff(new Uint8Array([0, 1, 2, 3]), "x.bin")).toBeNull();
  });

  it("accepts plain text only as .txt or .csv, and only when it is text", () => {
    expect(sniff(new TextEncoder().encode("a;b\n1;2\n"), "list.csv")?.mime).toBe("text/csv");
    expect(sniff(new Uint8Array([0x61, 0, 0x62]), "list.csv")).toBeNull();
  });

  it("limits logos to raster formats", () => {
    expect(ACCEPTED.logo).not.toContain("application/pdf");
    expect(ACCEPTED.document).toContain("application/pdf");
  });

  it("reads image dimensions from the header", () => {
    expect(imageSize(pngBytes(172, 296))).toEqual({ width: 172, height: 296 });
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0]);
    expect(imageSize(gif)).toEqual({ width: 10, height: 20 });
  });
});
