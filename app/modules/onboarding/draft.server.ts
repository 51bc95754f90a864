import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { config, secureCookies } from "~/config.server";
import { isLocale, type Locale } from "~/i18n";
import { ENTITY_FIELDS, FIELD_MAX, type EntityInput } from "./schema";

/**
 * The sign-up draft: what the visitor typed in the steps already passed, carried between the server
 * round trips of /signup (so it works without JavaScript and nothing is lost on Back).
 *
 * It lives in one httpOnly, SameSite=Lax cookie that expires after an hour, encrypted and
 * authenticated with AES-256-GCM under a key derived from SESSION_SECRET: the password of step 1 is
 * kept there until Finish and never travels in a form field or reaches a script.
 */
export interface SignupDraft {
  account?: {
    name: string;
    surname: string;
    email: string;
    language: Locale;
    password: string;
  };
  /** Step 2 as typed (unvalidated; saved on Back). */
  entity?: Partial<Record<keyof EntityInput, string>>;
  /** After Finish: the address the verification mail went to, for the success page. */
  sentTo?: string;
  /** Shown once on step 1: the draft expired before Finish. */
  expired?: boolean;
}

const MAX_AGE_SECONDS = 60 * 60;

let cookie: ReturnType<typeof createCookie> | undefined;
function draftCookie() {
  cookie ??= createCookie("signup_draft", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
    maxAge: MAX_AGE_SECONDS,
  });
  return cookie;
}

function key(): Buffer {
  return createHash("sha256").update(`caretaker/signup-draft/${config().SESSION_SECRET}`).digest();
}

export function sealDraft(draft: SignupDraft, secretKey: Buffer = key()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(draft), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function openDraft(sealed: unknown, secretKey: Buffer = key()): SignupDraft {
  if (typeof sealed !== "string" || !sealed) return {};
  try {
    const raw = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", secretKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return sanitize(JSON.parse(json));
  } catch {
    return {};
  }
}

function sanitize(value: unknown): SignupDraft {
  const v = (value ?? {}) as SignupDraft;
  const draft: SignupDraft = {};
  const a = v.account;
  if (a && typeof a.email === "string" && typeof a.password === "string" && isLocale(a.language)) {
    draft.account = { name: String(a.name ?? ""), surname: String(a.surname ?? ""), email: a.email, language: a.language, password: a.password };
  }
  if (v.entity && typeof v.entity === "object") draft.entity = clipEntity(v.entity);
  if (typeof v.sentTo === "string") draft.sentTo = v.sentTo;
  if (v.expired === true) draft.expired = true;
  return draft;
}

/** Step-2 values as typed, clipped to the schema's maximum lengths (the cookie stays small). */
export function clipEntity(values: Record<string, unknown> | FormData): Partial<Record<keyof EntityInput, string>> {
  const get = (k: string) => (values instanceof FormData ? values.get(k) : values[k]);
  const out: Partial<Record<keyof EntityInput, string>> = {};
  for (const field of ENTITY_FIELDS) {
    const value = get(field);
    if (typeof value === "string" && value !== "") out[field] = value.slice(0, FIELD_MAX[field]);
  }
  return out;
}

export async function readDraft(request: Request): Promise<SignupDraft> {
  return openDraft(await draftCookie().parse(request.headers.get("Cookie")));
}

/** The Set-Cookie header that stores the draft (or removes it when empty). */
export async function saveDraft(draft: SignupDraft): Promise<string> {
  if (!draft.account && !draft.entity && !draft.sentTo && !draft.expired) return clearDraft();
  return draftCookie().serialize(sealDraft(draft));
}

export async function clearDraft(): Promise<string> {
  return draftCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
