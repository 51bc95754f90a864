/**
 * What the service worker keeps and queues (issue 64, decision 067), as plain functions shared by the
 * worker (app/service-worker/sw.ts), the page's offline agent and their tests. A leaf: imports nothing.
 */

/** The key of a signed-in person: their copy and their queued writes are filed under it. */
export function personKey(entityId: number, userId: number): string {
  return `e${entityId}-u${userId}`;
}

const PERSON = /^e[1-9]\d{0,9}-u[1-9]\d{0,9}$/;
export function isPersonKey(value: unknown): value is string {
  return typeof value === "string" && PERSON.test(value);
}

/** The cache holding one person's kept pages and photos. */
export const KEPT_PREFIX = "caretaker-kept-";
export function keptCacheName(person: string): string {
  return `${KEPT_PREFIX}${person}`;
}

/** The header a kept page is fetched with: the server answers 409 when the session is someone else's. */
export const KEPT_FOR_HEADER = "X-Kept-For";
/** The header a kept copy carries: when it was saved (ISO 8601). */
export const KEPT_AT_HEADER = "X-Kept-At";
/** Where the list of pages to keep is read, and the offline page that lists them. */
export const KEPT_PAGES_URL = "/offline/pages";
export const OFFLINE_PAGE = "/offline";
/** At most this many pages and photos are kept for one person. */
export const MAX_KEPT = 200;
/** A kept copy older than this is not shown (a new copy is made every time the person is online). */
export const KEPT_MAX_AGE_MS = 3 * 24 * 3600 * 1000;

/** The channel on which the worker tells every open page about its copy and its queue. */
export const OFFLINE_CHANNEL = "caretaker-offline";

/**
 * The form posts that are queued when the network is down: marking a task done or undone, an incident's
 * status, a comment and recorded time (issue 64). Anything else needs the network.
 */
const QUEUED_WRITES: { path: RegExp; intents: readonly string[]; kind: WriteKind }[] = [
  { path: /^\/task$/, intents: ["done", "undo"], kind: "task" },
  { path: /^\/view-task\/[1-9]\d{0,9}\/\d{4}-\d{2}-\d{2}$/, intents: ["done", "undo", "recordTime"], kind: "task" },
  { path: /^\/incident\/[1-9]\d{0,9}$/, intents: ["status", "comment", "recordTime"], kind: "incident" },
];

export type WriteKind = "task" | "incident";

/** Whether a form post to `url` with `intent` may wait in the queue; null when it needs the network. */
export function queuedWrite(url: URL, method: string, intent: string | null): { kind: WriteKind; intent: string } | null {
  if (method.toUpperCase() !== "POST" || intent === null) return null;
  for (const rule of QUEUED_WRITES) {
    if (rule.path.test(url.pathname) && rule.intents.includes(intent)) return { kind: rule.kind, intent };
  }
  return null;
}

/**
 * Whether a page address may be kept: the app's own screens for signed-in people, never the API, a
 * file download, an export, the occupier's report page or a page of the session itself.
 */
export function mayKeep(url: URL, origin: string): boolean {
  if (url.origin !== origin) return false;
  if (url.username || url.password || url.hash) return false;
  const path = url.pathname;
  if (!path.startsWith("/") || path.includes("//") || path.includes("..")) return false;
  if (path.endsWith(".data") || path.includes(".")) return false;
  return !/^\/(api|files|report|report-issue|resources|login|logout|signup|password|set-language|cookie-consent|altcha|locales|import-data|printing|calendar|import-template)(\/|$)/.test(path);
}

/** Whether a photo address may be kept (a stored file of the kept pages). */
export function mayKeepFile(url: URL, origin: string): boolean {
  return url.origin === origin && /^\/files\/[0-9a-f-]{36}$/.test(url.pathname) && url.search === "";
}

/** The answer of a replayed post, read from the final response (redirects followed). */
export type ReplayOutcome = { kind: "sent" } | { kind: "refused"; reasons: string[]; status: number } | { kind: "retry" } | { kind: "login" };

/**
 * What a replayed form post came to. The app answers a saved form with a redirect to its page (with a
 * success toast), a refused one with its page showing the errors (400, 404, or a redirect to the page
 * with an error toast) or /forbidden, an expired session with /login; a server or rate-limit failure is
 * tried again later.
 */
export function replayOutcome(answer: { status: number; finalPath: string; html: string }): ReplayOutcome {
  if (answer.finalPath === "/login" || answer.status === 401) return { kind: "login" };
  if (answer.status >= 500 || answer.status === 429 || answer.status === 408) return { kind: "retry" };
  const reasons = refusalReasons(answer.html);
  if (answer.status >= 400 || answer.finalPath === "/forbidden") return { kind: "refused", reasons, status: answer.status };
  if (reasons.length) return { kind: "refused", reasons, status: answer.status };
  return { kind: "sent" };
}

/** The attribute the app puts on the texts of a refusal (an error toast, a form's or a field's error). */
export const REFUSAL_ATTRIBUTE = "data-refusal";

/** The refusal texts of a page the server answered, in the order of the page. */
export function refusalReasons(html: string): string[] {
  const found: string[] = [];
  const marked = /<([a-z][a-z0-9]*)\b[^>]*\sdata-refusal(?:=""|(?=[\s/>]))[^>]*>([\s\S]*?)<\/\1>/gi;
  for (const match of html.matchAll(marked)) {
    const text = decodeEntities(match[2].replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
    if (text && !found.includes(text)) found.push(text);
    if (found.length >= 5) break;
  }
  return found;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** What the worker tells the pages about one person's copy and queue. */
export interface OfflineState {
  person: string | null;
  /** When the copy was last made (ISO), null: none yet. */
  savedAt: string | null;
  /** The kept pages' addresses (path and query). */
  pages: string[];
  /** Posts waiting to be sent. */
  waiting: number;
  /** Posts the server refused on replay, newest last, until the person dismisses them. */
  refused: RefusedWrite[];
  /** The session has ended: sending waits for a login. */
  loginNeeded: boolean;
}

export interface RefusedWrite {
  id: string;
  /** The page the post was made on. */
  path: string;
  kind: WriteKind;
  intent: string;
  reasons: string[];
  status: number;
  /** When it was made (ISO). */
  madeAt: string;
}

/** The header of a post the service worker sends again: the id it gave the post when it queued it. */
export const OFFLINE_WRITE_HEADER = "X-Offline-Write";
const WRITE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a write id as the worker makes them (a UUID). */
export function isWriteId(value: unknown): value is string {
  return typeof value === "string" && WRITE_ID.test(value);
}
