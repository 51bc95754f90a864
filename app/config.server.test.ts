import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-config-"));

describe("configuration", () => {
  it("needs nothing on a developer machine: PGlite in the data folder, secrets generated and kept", () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.databaseMode).toBe("pglite");
    expect(first.PORT).toBe(3000);
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it("allows no cross-origin API caller unless origins are listed; the API's rate limits have defaults", () => {
    const plain = loadConfig({ DATA_DIR: tmp() });
    expect(plain.API_CORS_ORIGINS).toEqual([]);
    expect(plain.API_RATE_LIMIT_PER_PERSON).toBe(600);
    expect(plain.API_RATE_LIMIT_PER_TOKEN).toBe(300);
    const listed = loadConfig({ DATA_DIR: tmp(), API_CORS_ORIGINS: "https://a.example.com/app, http://localhost:5173" });
    expect(listed.API_CORS_ORIGINS).toEqual(["https://a.example.com", "http://localhost:5173"]);
    expect(() => loadConfig({ DATA_DIR: tmp(), API_CORS_ORIGINS: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), API_RATE_LIMIT_PER_TOKEN: "0" })).toThrow(ConfigError);
  });

  it("knows whether the public address was configured (else pages use the request's origin)", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).appUrlConfigured).toBe(false);
    const configured = loadConfig({ DATA_DIR: tmp(), APP_URL: "https://care.example.org" });
    expect(configured.appUrlConfigured).toBe(true);
    expect(configured.APP_URL).toBe("https://care.example.org");
  });

  it("trusts no proxy unless told how many stand in front, and refuses anything but a small count", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).TRUST_PROXY).toBe(0);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    for (const bad of ["true", "-1", "1.5", "loopback", "99"]) {
      expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    expect(loadConfig({ DATA_DIR: tmp() }).RATE_LIMIT_MULTIPLIER).toBe(1);
    expect(() => loadConfig({ DATA_DIR: tmp(), RATE_LIMIT_MULTIPLIER: "0" })).toThrow(/RATE_LIMIT_MULTIPLIER/);
  });

  it("names every bad variable in one clear message", () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), PORT: "eighty", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("PORT:");
    expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// connection string");
    expect(message).toContain("LOG_LEVEL:");
  });

  it("refuses a production PostgreSQL run without its secrets", () => {
    expect(() =>
      loadConfig({ DATA_DIR: tmp(), NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" }),
    ).toThrow(/SESSION_SECRET: required when NODE_ENV=production and DATABASE_URL is set[\s\S]*JWT_SECRET: required/);
  });

  it("accepts a production PostgreSQL run with secrets, and rejects short ones", () => {
    const secret = "x".repeat(40);
    const cfg = loadConfig({
      DATA_DIR: tmp(),
      NODE_ENV: "production",
      DATABASE_URL: "postgres://u@h/db",
      SESSION_SECRET: secret,
      JWT_SECRET: secret,
    });
    expect(cfg.databaseMode).toBe("postgres");
    expect(cfg.isProduction).toBe(true);
    expect(() => loadConfig({ DATA_DIR: tmp(), SESSION_SECRET: "short" })).toThrow(
      /SESSION_SECRET: must be at least 32 characters/,
    );
  });

  it("treats empty variables as unset", () => {
    const cfg = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: "", SMTP_URL: "" });
    expect(cfg.databaseMode).toBe("pglite");
    expect(cfg.SMTP_URL).toBeUndefined();
  });
});
