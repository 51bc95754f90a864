import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { formDataOf, readFormData } from "./form-action.server";

/** A posted multipart body, written by hand so that it can also be cut or malformed. */
function multipart(body: string, boundary = "XYZ"): Request {
  return new Request("http://localhost/form", {
    method: "POST",
    body: new TextEncoder().encode(body),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
}
const part = (name: string, value: string, filename?: string) =>
  `--XYZ\r\nContent-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"\r\nContent-Type: image/jpeg` : ""}\r\n\r\n${value}\r\n`;
const end = "--XYZ--\r\n";

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe("reading a posted form", () => {
  it("answers 400 for a body that is not a readable form: cut, malformed, or of another type", async () => {
    expect(await status(readFormData(multipart(`--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nhello`), 1000))).toBe(400);
    expect(await status(readFormData(multipart("garbage"), 1000))).toBe(400);
    expect(await status(formDataOf(multipart(part("a", "b"), "")))).toBe(400);
    const text = new Request("http://localhost/form", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await status(formDataOf(text))).toBe(400);
  });

  it("keeps text and file names in UTF-8, leaves out a file input left empty, and cuts a file at one byte over the limit", async () => {
    const form = await readFormData(multipart(part("description", "naïve ✓") + part("photos", "abcdefghij", "été ✓.jpg") + part("photos", "", "") + part("photos", "xyz", "b.jpg") + end), 5);
    expect(form.get("description")).toBe("naïve ✓");
    const files = form.getAll("photos") as File[];
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ["été ✓.jpg", 6],
      ["b.jpg", 3],
    ]);
    expect(await files[0].text()).toBe("abcdef");
  });

  it("refuses a text part over 256 KiB (413) and reads an urlencoded form as it is", async () => {
    expect(await status(readFormData(multipart(part("description", "é".repeat(140 * 1024)) + end), 1000))).toBe(413);
    const urlencoded = new Request("http://localhost/form", { method: "POST", body: "a=1&b=%C3%A9", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(Object.fromEntries(await readFormData(urlencoded, 1000))).toEqual({ a: "1", b: "é" });
  });

  it("refuses list indexes that would build lists far larger than the form (one field `email[99999999]` ran the server out of memory)", async () => {
    const urlencoded = (body: string) => new Request("http://localhost/form", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    for (const body of ["email%5B99999999%5D=a&password=x", "tags%5B5000%5D=a", "a%5B999%5D%5B999%5D%5B999%5D=x", Array.from({ length: 50 }, (_, i) => `f${i}%5B900%5D=x`).join("&")]) {
      expect(await status(formDataOf(urlencoded(body))), body.slice(0, 40)).toBe(400);
    }
    // The guard counts, it does not build the lists: an index past the longest array JavaScript can hold
    // (2^32 - 1 items) is refused with 400 too, where building its list would throw a RangeError.
    expect(() => new Array(4294967295 + 1)).toThrow(RangeError);
    expect(await status(formDataOf(urlencoded("email%5B4294967295%5D=a&password=x")))).toBe(400);
    // What the app's forms post: a slot per item, whatever the list's length; and a few empty items.
    const items = Array.from({ length: 3000 }, (_, i) => `equipments%5B${i}%5D.id=${i}&equipments%5B${i}%5D.internalReference=R${i}`).join("&");
    expect(await status(formDataOf(urlencoded(`name=Room&${items}`)))).toBe(200);
    expect(await status(formDataOf(urlencoded("tags%5B0%5D=a&tags%5B40%5D=b")))).toBe(200);
    // At most 20,000 fields.
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=v`).join("&");
    expect(await status(formDataOf(urlencoded(fields(20_000))))).toBe(200);
    expect(await status(formDataOf(urlencoded(fields(20_001))))).toBe(400);
  });

  it("answers 400 for a list button's intent conform cannot apply, and reads the ones the forms send", async () => {
    const withIntent = (intent: string, fields = "tags%5B0%5D=a&name=x") =>
      new Request("http://localhost/form", { method: "POST", body: `${fields}&__intent__=${encodeURIComponent(intent)}`, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const refused = [
      "\u0000nothing",
      "null",
      "[]",
      "{}",
      '{"type":"reset"}',
      '{"type":"drop","payload":{"name":"tags"}}',
      '{"type":"insert","payload":{"name":"name"}}',
      '{"type":"insert","payload":{"name":"a[zz"}}',
      '{"type":"update","payload":{"name":"__proto__","value":"x"}}',
      '{"type":"update","payload":{"name":"tags[99999999]","value":"x"}}',
      '{"type":"remove","payload":{"name":7,"index":0}}',
    ];
    for (const intent of refused) expect(await status(formDataOf(withIntent(intent))), intent).toBe(400);
    // Each applied by conform as the actions do, to the list the form posted (tags a, b).
    const accepted: Array<[string, unknown]> = [
      ['{"type":"insert","payload":{"name":"tags","defaultValue":"c"}}', { name: "x", tags: ["a", "b", "c"] }],
      ['{"type":"remove","payload":{"name":"tags","index":0}}', { name: "x", tags: ["b"] }],
      ['{"type":"reorder","payload":{"name":"tags","from":0,"to":1}}', { name: "x", tags: ["b", "a"] }],
      ['{"type":"validate","payload":{"name":"name"}}', { name: "x", tags: ["a", "b"] }],
    ];
    for (const [intent, payload] of accepted) {
      const form = await formDataOf(withIntent(intent, "tags%5B0%5D=a&tags%5B1%5D=b&name=x"));
      expect(parseWithZod(form, { schema: z.object({ name: z.string(), tags: z.array(z.string()).optional() }) }).payload, intent).toEqual(payload);
    }
  });
});
