import { describe, expect, it } from "vitest";
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
});
