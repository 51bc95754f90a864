import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Configuration, validated once at boot. Every variable is optional on a developer machine:
 * secrets are generated on first start and kept in the data folder. A production run on a real
 * PostgreSQL server (NODE_ENV=production with DATABASE_URL) must be given its secrets.
 */
const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  APP_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * The key that seals the secrets the app keeps in its database (webhook signing secrets, decision 057);
   * derived from SESSION_SECRET when not set.
   */
  SECRETS_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** The key SECRETS_KEY replaces: what it sealed still opens, and is sealed again with SECRETS_KEY at start. */
  SECRETS_KEY_PREVIOUS: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(900),
  REFRESH_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** How many reverse proxies stand in front of the app (0: none; X-Forwarded-For is then ignored). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Compress dynamic responses in the app (brotli quality 3 or gzip level 4, decision 019). Set it to false when a
   * proxy in front compresses; static files are always sent from their precompressed copies.
   */
  COMPRESSION: booleanFlag.default(true),
  /**
   * Keep the public report page and its sticker lookups in memory until the sticker's entity writes
   * (decision 019). False renders and reads them for every scan (benchmarks compare the two).
   */
  REPORT_PAGE_CACHE: booleanFlag.default(true),
  /** Multiplies the server's per-minute request limits (server/rate-limit.ts); the test suites raise it. */
  RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /** Calls a minute to /api per signed-in person (their bearer session) and per API token (decision 056). */
  API_RATE_LIMIT_PER_PERSON: z.coerce.number().int().min(1).max(1_000_000).default(600),
  API_RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /**
   * Origins (scheme://host[:port], comma-separated) whose pages may call /api from a browser (CORS).
   * Unset: none, and /api answers carry no CORS headers.
   */
  API_CORS_ORIGINS: z
    .string()
    .transform((value) => value.split(",").map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.url().transform((url) => new URL(url).origin)))
    .default([]),
  LOGIN_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// address")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Caretaker <no-reply@caretaker.local>"),
  BUG_REPORT_EMAIL: z.email().optional(),
  ANALYTICS_SCRIPT_URL: z.url().optional(),
  HELP_BASE_URL: z.url().default("https://help.caretaker.example"),
  /** A LibreTranslate-compatible server (POST {url}/translate) for "translate to the others"; without it names are copied. */
  TRANSLATE_URL: z.url().optional(),
  TRANSLATE_API_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Read notifications older than this many days are removed by a daily job (decision 028). */
  NOTIFICATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /** Finished webhook deliveries older than this many days are removed by a nightly job (decision 057). */
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  /** An export's file is deleted this many hours after it was written (decision 055). */
  EXPORT_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(72),
  SEED_DEMO: booleanFlag.default(true),
  JOBS: booleanFlag.default(true),
  /** Open live-notification streams one user may hold in one process (tabs, devices); more answer 429. */
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(5),
  /**
   * On SIGTERM, how long requests in flight may take to finish before their connections are cut; below
   * Docker's 30 s between its SIGTERM and its SIGKILL.
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  /** Benchmarks only: time each request's queries and answer them in a `Server-Timing` header. */
  SERVER_TIMING: booleanFlag.default(false),
  /**
   * Tests only: the parent process that started the server may move its clock over the IPC channel
   * (app/lib/clock.server.ts). Without such a channel it does nothing; no request can move the clock.
   */
  TEST_CLOCK_IPC: booleanFlag.default(false),
  /**
   * Let webhooks reach private, loopback and link-local addresses and plain http:// URLs (decision 057):
   * off by default (server-side request forgery); the tests turn it on for their receivers on loopback.
   */
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, "SESSION_SECRET" | "JWT_SECRET" | "APP_URL"> {
  APP_URL: string;
  /** Whether APP_URL was configured (else it is a localhost guess and pages use the request's origin). */
  appUrlConfigured: boolean;
  SESSION_SECRET: string;
  JWT_SECRET: string;
  /** Absolute path of the data folder (PGlite database, uploads, outbox, generated secrets). */
  dataDir: string;
  databaseMode: "pglite" | "postgres";
  isProduction: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Empty strings count as "not set", as they do in most .env files and compose files. */
function withoutEmpty(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
}

/** Reads or creates the secrets file in the data folder (mode 0600). */
function localSecrets(dataDir: string): { SESSION_SECRET: string; JWT_SECRET: string } {
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    if (typeof parsed.SESSION_SECRET === "string" && typeof parsed.JWT_SECRET === "string") return parsed;
  }
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    JWT_SECRET: randomBytes(32).toString("base64url"),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** Validates the environment; throws ConfigError naming each bad variable. */
export function loadConfig(rawEnv: Record<string, string | undefined> = process.env): Config {
  const result = EnvSchema.safeParse(withoutEmpty(rawEnv));
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
    );
  }
  const env = result.data;
  const isProduction = env.NODE_ENV === "production";
  const databaseMode = env.DATABASE_URL ? "postgres" : "pglite";

  if (isProduction && databaseMode === "postgres") {
    const missing = (["SESSION_SECRET", "JWT_SECRET"] as const).filter((k) => !env[k]);
    if (missing.length) {
      throw new ConfigError(
        missing.map((k) => `${k}: required when NODE_ENV=production and DATABASE_URL is set (at least 32 characters)`),
      );
    }
  }

  const dataDir = path.resolve(env.DATA_DIR);
  const generated =
    env.SESSION_SECRET && env.JWT_SECRET
      ? { SESSION_SECRET: env.SESSION_SECRET, JWT_SECRET: env.JWT_SECRET }
      : {
          ...localSecrets(dataDir),
          ...(env.SESSION_SECRET ? { SESSION_SECRET: env.SESSION_SECRET } : {}),
          ...(env.JWT_SECRET ? { JWT_SECRET: env.JWT_SECRET } : {}),
        };

  return {
    ...env,
    ...generated,
    APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
    appUrlConfigured: Boolean(env.APP_URL),
    dataDir,
    databaseMode,
    isProduction,
  };
}

const globalConfig = globalThis as unknown as { __caretakerConfig?: Config };

/** Whether cookies are sent only over HTTPS: when the app's public address is https (every cookie of the app). */
export function secureCookies(): boolean {
  return config().APP_URL.startsWith("https://");
}

/** The process-wide configuration (validated on first use). */
export function config(): Config {
  globalConfig.__caretakerConfig ??= loadConfig();
  return globalConfig.__caretakerConfig;
}
