import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "./harness";
import { knownFilesOnly, listFiles } from "../../server/known-files";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-known-"));
let base = "";
let close: () => Promise<void>;
/** The paths the static handlers were asked for. */
const reached: string[] = [];

beforeAll(async () => {
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets/app-1.js"), "console.log(1);");
  fs.writeFileSync(path.join(root, "favicon.ico"), "icon");
  fs.writeFileSync(path.join(root, "a b.txt"), "spaced");
  const spy = (handler: express.RequestHandler): express.RequestHandler => (req, res, next) => {
    reached.push(req.baseUrl + req.path);
    handler(req, res, next);
  };
  const app = express();
  app.use("/assets", knownFilesOnly(listFiles(root), spy(express.static(path.join(root, "assets"), { index: false }))));
  app.use(knownFilesOnly(listFiles(root), spy(express.static(root, { index: false }))));
  app.use((_req, res) => {
    res.status(404).send("page");
  });
  ({ base, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("knownFilesOnly", () => {
  it("hands the build's files to the static handler, mounted or not", async () => {
    reached.length = 0;
    const asset = await fetch(`${base}/assets/app-1.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe("console.log(1);");
    expect(await (await fetch(`${base}/favicon.ico`)).text()).toBe("icon");
    expect(await (await fetch(`${base}/a%20b.txt`)).text()).toBe("spaced");
    expect(reached).toEqual(["/assets/app-1.js", "/favicon.ico", "/a%20b.txt"]);
  });

  it("lets every other request go on without asking the file system", async () => {
    reached.length = 0;
    for (const url of ["/dashboard", "/assets/missing.js", "/assets/", "/assets/app-1.js/..", "/%E0%A4%A", "/..%2Fpackage.json"]) {
      const res = await fetch(`${base}${url}`);
      expect(res.status, url).toBe(404);
      expect(await res.text()).toBe("page");
    }
    const post = await fetch(`${base}/favicon.ico`, { method: "POST" });
    expect(await post.text()).toBe("page");
    expect(reached).toEqual([]);
  });
});
