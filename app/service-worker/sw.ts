/// <reference lib="webworker" />
/**
 * The service worker of signed-in staff (issue 64, decision 067), built with Workbox by
 * scripts/build-sw.mjs into build/client/sw.js:
 * - the app's own static files are precached (their list is injected at build time);
 * - the day's pages of the signed-in person (read from /offline/pages) are kept in that person's cache, and
 *   answer a navigation only when the network does not;
 * - the form posts of `queuedWrite` wait in a Workbox background-sync queue while the network is down and
 *   are replayed in order as the same posts, so every server rule applies to them unchanged; what the
 *   server refuses is kept with its reasons for the person to read.
 * What is kept and queued is decided by app/lib/offline-rules.ts.
 */
import { Queue } from "workbox-background-sync";
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { StaleWhileRevalidate } from "workbox-strategies";
import { KEPT_AT_HEADER, KEPT_FOR_HEADER, KEPT_MAX_AGE_MS, KEPT_PAGES_URL, KEPT_PREFIX, MAX_KEPT, OFFLINE_CHANNEL, OFFLINE_PAGE, OFFLINE_WRITE_HEADER, type OfflineState, type RefusedWrite, isPersonKey, keptCacheName, mayKeep, mayKeepFile, queuedWrite, replayOutcome, type WriteKind } from "~/lib/offline-rules";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const origin = self.location.origin;

void self.skipWaiting();
clientsClaim();
// `self.__WB_MANIFEST` is Workbox's documented injection point (workbox-build injectManifest), not a private member.
// eslint-disable-next-line caretaker/no-private-members
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The translations of the page's language, public and versioned: kept for hydrating a kept page offline.
const STATIC_CACHE = "caretaker-static";
registerRoute(({ url }) => url.origin === origin && url.pathname.startsWith("/locales/"), new StaleWhileRevalidate({ cacheName: STATIC_CACHE }));

// ---------------------------------------------------------------------------
// The worker's own state (persisted: the browser stops an idle worker)
// ---------------------------------------------------------------------------

const META_CACHE = "caretaker-offline-meta";
const META_URL = "/__offline/state";

interface Stored {
  person: string | null;
  savedAt: string | null;
  pages: string[];
  refused: RefusedWrite[];
  loginNeeded: boolean;
}

const EMPTY: Stored = { person: null, savedAt: null, pages: [], refused: [], loginNeeded: false };

async function readStored(): Promise<Stored> {
  const answer = await (await caches.open(META_CACHE)).match(META_URL);
  if (!answer) return { ...EMPTY };
  try {
    return { ...EMPTY, ...((await answer.json()) as Partial<Stored>) };
  } catch {
    return { ...EMPTY };
  }
}

async function writeStored(stored: Stored): Promise<void> {
  await (await caches.open(META_CACHE)).put(META_URL, new Response(JSON.stringify(stored), { headers: { "Content-Type": "application/json" } }));
}

/** One change of the state at a time (messages, replays and copies run side by side). */
let chain: Promise<unknown> = Promise.resolve();
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const next = chain.then(work, work);
  chain = next.catch(() => undefined);
  return next;
}

async function update(change: (stored: Stored) => Stored | void): Promise<Stored> {
  return exclusive(async () => {
    const stored = await readStored();
    const next = change(stored) ?? stored;
    await writeStored(next);
    return next;
  });
}

async function stateOf(stored: Stored): Promise<OfflineState> {
  const waiting = stored.person ? (await queue.getAll()).filter((entry) => (entry.metadata as { person?: string } | undefined)?.person === stored.person).length : 0;
  return { person: stored.person, savedAt: stored.savedAt, pages: stored.pages, waiting, refused: stored.refused, loginNeeded: stored.loginNeeded };
}

const channel = new BroadcastChannel(OFFLINE_CHANNEL);
async function tell(): Promise<OfflineState> {
  const state = await stateOf(await readStored());
  channel.postMessage(state);
  return state;
}

// ---------------------------------------------------------------------------
// The person's copy
// ---------------------------------------------------------------------------

/** Deletes every kept copy but `keep`'s. */
async function dropCopies(keep: string | null): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(KEPT_PREFIX) && name !== (keep ? keptCacheName(keep) : null)) await caches.delete(name);
  }
}

/** The person signed out (or their session ended): their copy goes; their waiting posts stay theirs. */
async function forget(): Promise<void> {
  copying = null;
  await update((stored) => ({ ...stored, person: null, savedAt: null, pages: [], loginNeeded: false }));
  await dropCopies(null);
}

let copying: { person: string; done: Promise<void> } | null = null;
let copiedAt = 0;
const COPY_EVERY_MS = 5 * 60 * 1000;

/** Makes `person`'s copy again when it is older than a few minutes (or `force`), one copy at a time. */
function copyFor(person: string, force = false): Promise<void> {
  if (copying?.person === person) return copying.done;
  if (!force && Date.now() - copiedAt < COPY_EVERY_MS) return Promise.resolve();
  const run = { person, done: Promise.resolve() };
  run.done = makeCopy(person, () => copying === run).finally(() => {
    if (copying === run) copying = null;
  });
  copying = run;
  return run.done;
}

interface KeptList {
  person: string;
  pages: string[];
  files: string[];
}

async function makeCopy(person: string, current: () => boolean): Promise<void> {
  let answer: Response;
  try {
    answer = await fetch(KEPT_PAGES_URL, { headers: { Accept: "application/json", [KEPT_FOR_HEADER]: person }, credentials: "same-origin" });
  } catch {
    return; // offline: the copy stays as it is
  }
  if (new URL(answer.url).pathname === "/login" || answer.status === 401 || answer.status === 409) {
    // Signed out, disabled, archived, or another person's session: nothing of this copy may stay.
    await forget();
    return;
  }
  if (!answer.ok) return;
  const list = (await answer.json().catch(() => null)) as KeptList | null;
  if (!list || list.person !== person || !Array.isArray(list.pages) || !Array.isArray(list.files)) return;
  const cache = await caches.open(keptCacheName(person));
  const keptAt = new Date().toISOString();
  const wanted = new Set<string>();
  const pages: string[] = [];
  for (const address of [...list.pages, ...list.files].slice(0, MAX_KEPT)) {
    if (!current()) return;
    const url = new URL(address, origin);
    const isFile = mayKeepFile(url, origin);
    if (!isFile && !mayKeep(url, origin)) continue;
    const kept = await keep(url, person, keptAt, isFile);
    if (!current()) return;
    if (!kept) continue;
    await cache.put(url.href, kept);
    wanted.add(url.href);
    if (!isFile) pages.push(url.pathname + url.search);
  }
  for (const request of await cache.keys()) {
    if (!wanted.has(request.url)) await cache.delete(request);
  }
  copiedAt = Date.now();
  await update((stored) => (stored.person === person ? { ...stored, savedAt: keptAt, pages } : stored));
  await tell();
}

/** One page (or photo, reduced) as it is kept, or null when the server did not give it to this person. */
async function keep(url: URL, person: string, keptAt: string, isFile: boolean): Promise<Response | null> {
  let answer: Response;
  try {
    answer = await fetch(url.href, { headers: { [KEPT_FOR_HEADER]: person, Accept: isFile ? "image/*" : "text/html" }, credentials: "same-origin" });
  } catch {
    return null;
  }
  if (!answer.ok || answer.redirected) return null;
  const type = answer.headers.get("Content-Type") ?? "";
  if (isFile ? !type.startsWith("image/") : !type.startsWith("text/html")) return null;
  const body = isFile ? await reduced(await answer.blob()) : await answer.blob();
  const headers = new Headers({ "Content-Type": body.type || type, [KEPT_AT_HEADER]: keptAt });
  // A page keeps its security policy, whose nonce is the one its scripts carry.
  const policy = answer.headers.get("Content-Security-Policy");
  if (policy && !isFile) headers.set("Content-Security-Policy", policy);
  return new Response(body, { headers });
}

const PHOTO_SIDE = 1024;

/** A photo at most PHOTO_SIDE pixels wide or high, as JPEG; the original where the browser cannot draw it. */
async function reduced(photo: Blob): Promise<Blob> {
  if (typeof OffscreenCanvas === "undefined" || typeof createImageBitmap === "undefined") return photo;
  try {
    const bitmap = await createImageBitmap(photo);
    const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && photo.size < 300_000) return photo;
    const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return await canvas.convertToBlob({ type: "image/jpeg", quality: 0.75 });
  } catch {
    return photo;
  }
}

/** The kept copy of `url` for the person signed in on this device, when it is there and recent. */
async function keptAnswer(url: URL): Promise<Response | null> {
  const { person } = await readStored();
  if (!person) return null;
  const cache = await caches.open(keptCacheName(person));
  const kept = await cache.match(url.href);
  if (!kept) return null;
  const at = Date.parse(kept.headers.get(KEPT_AT_HEADER) ?? "");
  return Number.isFinite(at) && Date.now() - at < KEPT_MAX_AGE_MS ? kept : null;
}

/**
 * A page that is not kept: to the kept offline page, at its own address (a page's copy answered at another
 * address would not match the app's routes when it starts), or a short page in the three languages.
 */
async function offlineRedirect(url: URL): Promise<Response> {
  if (url.pathname !== OFFLINE_PAGE && (await keptAnswer(new URL(OFFLINE_PAGE, origin)))) return Response.redirect(new URL(OFFLINE_PAGE, origin).href, 302);
  return offlineAnswer();
}

/** The kept offline page (what is available), or a short page in the three languages. */
async function offlineAnswer(): Promise<Response> {
  const kept = await keptAnswer(new URL(OFFLINE_PAGE, origin));
  if (kept) return kept;
  const body = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Offline</title></head>
<body style="font-family:system-ui,sans-serif;margin:2rem;line-height:1.5"><main><h1>Offline</h1>
<p lang="en">This page is not available offline. Try again when the network is back.</p>
<p lang="fr-BE">Cette page n’est pas disponible hors ligne. Réessayez quand le réseau sera revenu.</p>
<p lang="nl-BE">Deze pagina is offline niet beschikbaar. Probeer opnieuw wanneer het netwerk terug is.</p></main></body></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

const TRANSLATIONS = /^\/locales\/[A-Za-z-]{2,8}\.json(\?v=[\w.-]{1,64})?$/;

/** The page's translations, without which a kept page would not start (app/i18n.client.ts). */
async function keepTranslations(address: string): Promise<void> {
  if (!TRANSLATIONS.test(address)) return;
  const cache = await caches.open(STATIC_CACHE);
  if (await cache.match(new URL(address, origin).href)) return;
  await cache.add(new URL(address, origin).href).catch(() => undefined);
}

// ---------------------------------------------------------------------------
// Pages and photos: the network first, the kept copy when it does not answer
// ---------------------------------------------------------------------------

/** How long a navigation waits for the network before a kept copy answers (a weak signal in a basement). */
const NETWORK_WAIT_MS = 8000;

registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === origin,
  async ({ request, url }) => {
    const network = fetch(request);
    const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), NETWORK_WAIT_MS));
    try {
      const first = await Promise.race([network, timer]);
      if (first) {
        // The sign-in page answered by the server: nobody is signed in on this device any more.
        if (url.pathname === "/login" && first.ok) await forget().then(tell);
        return first;
      }
      const kept = await keptAnswer(url);
      return kept ?? (await network);
    } catch {
      return (await keptAnswer(url)) ?? (await offlineRedirect(url));
    }
  },
  "GET",
);

registerRoute(
  ({ request, url }) => request.destination === "image" && mayKeepFile(url, origin),
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch {
      return (await keptAnswer(url)) ?? Response.error();
    }
  },
  "GET",
);

// ---------------------------------------------------------------------------
// Writes: sent when the network answers, queued when it does not
// ---------------------------------------------------------------------------

interface WriteMeta {
  person: string;
  path: string;
  kind: WriteKind;
  intent: string;
  madeAt: string;
  id: string;
}

const queue = new Queue("caretaker-writes", {
  // Background Sync where the browser has it; the pages also ask for a replay when they come online.
  onSync: () => replay(),
  maxRetentionTime: 7 * 24 * 60,
});

// Signing out: the copy goes first, whatever the network says.
registerRoute(
  ({ url }) => url.origin === origin && (url.pathname === "/logout" || url.pathname === "/logout.data"),
  async ({ request }) => {
    await forget();
    await tell();
    try {
      return await fetch(request);
    } catch {
      return offlineRedirect(new URL(OFFLINE_PAGE, origin));
    }
  },
  "POST",
);

registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === origin,
  async ({ request, url }) => {
    const copy = request.clone();
    try {
      return await fetch(request);
    } catch {
      const form = await copy
        .clone()
        .formData()
        .catch(() => null);
      const intent = form?.get("intent");
      const write = queuedWrite(url, "POST", typeof intent === "string" ? intent : null);
      const { person } = await readStored();
      if (!write || !person) return offlineRedirect(new URL(OFFLINE_PAGE, origin));
      const meta: WriteMeta = { person, path: url.pathname + url.search, kind: write.kind, intent: write.intent, madeAt: new Date().toISOString(), id: crypto.randomUUID() };
      await queue.pushRequest({ request: copy, metadata: meta as unknown as Record<string, unknown> });
      await tell();
      // Back to the page the post was made on, which the kept copy shows with the queue's count.
      const back = sameOriginReferrer(request.referrer) ?? url.href;
      return Response.redirect(back, 303);
    }
  },
  "POST",
);

function sameOriginReferrer(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    return url.origin === origin ? url.href : null;
  } catch {
    return null;
  }
}

let replaying: Promise<void> | null = null;
let askedAgain = false;

/**
 * Sends the signed-in person's waiting posts in order; stops at the first that cannot reach the server. Asked
 * while a round runs (the network came back while that round was failing), another round follows it.
 */
function replay(): Promise<void> {
  if (replaying) {
    askedAgain = true;
    return replaying;
  }
  const rounds = async () => {
    do {
      askedAgain = false;
      await sendWaiting();
    } while (askedAgain);
  };
  replaying = rounds().finally(() => {
    replaying = null;
  });
  return replaying;
}

async function sendWaiting(): Promise<void> {
  const { person } = await readStored();
  if (!person) return;
  const others: Awaited<ReturnType<typeof queue.shiftRequest>>[] = [];
  let sent = 0;
  let stop: "network" | "login" | null = null;
  try {
    for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) {
      const meta = entry.metadata as unknown as WriteMeta | undefined;
      if (!meta || meta.person !== person) {
        others.push(entry);
        continue;
      }
      let answer: Response;
      try {
        // A copy is sent: the entry keeps its body for going back in the queue.
        // With the post's own id, so that a send whose answer was lost is not applied twice (OFFLINE_WRITE_HEADER).
        const headers = new Headers(entry.request.headers);
        headers.set(OFFLINE_WRITE_HEADER, meta.id);
        answer = await fetch(new Request(entry.request.clone(), { headers, redirect: "follow", mode: "same-origin", credentials: "same-origin" }));
      } catch {
        await queue.unshiftRequest(entry);
        stop = "network";
        break;
      }
      const outcome = replayOutcome({ status: answer.status, finalPath: new URL(answer.url || meta.path, origin).pathname, html: await answer.text().catch(() => "") });
      if (outcome.kind === "retry" || outcome.kind === "login") {
        await queue.unshiftRequest(entry);
        stop = outcome.kind === "login" ? "login" : "network";
        break;
      }
      sent++;
      if (outcome.kind === "refused") {
        const refused: RefusedWrite = { id: meta.id, path: meta.path, kind: meta.kind, intent: meta.intent, reasons: outcome.reasons, status: outcome.status, madeAt: meta.madeAt };
        await update((stored) => ({ ...stored, refused: [...stored.refused, refused].slice(-20) }));
      }
      await tell();
    }
  } finally {
    // Other people's waiting posts go back in front, in their order.
    for (const entry of others.reverse()) if (entry) await queue.unshiftRequest(entry);
  }
  await update((stored) => ({ ...stored, loginNeeded: stop === "login" }));
  await tell();
  // What was sent changed the pages: the copy is made again.
  if (sent > 0 && stop === null) await copyFor(person, true);
}

// ---------------------------------------------------------------------------
// Messages from the pages
// ---------------------------------------------------------------------------

type Message = { type: "hello"; person: string; locales?: string } | { type: "status" } | { type: "replay" } | { type: "dismiss"; id: string } | { type: "copy" };

self.addEventListener("message", (event) => {
  const message = event.data as Message | null;
  if (!message || typeof message !== "object") return;
  const answer = (state: OfflineState) => event.ports[0]?.postMessage(state);
  const work = (async () => {
    switch (message.type) {
      case "hello": {
        if (!isPersonKey(message.person)) return;
        const before = await readStored();
        if (before.person !== message.person) {
          // Someone else signed in on this device: the last person's copy goes.
          copiedAt = 0;
          await update((stored) => ({ ...stored, person: message.person, savedAt: null, pages: [], refused: [], loginNeeded: false }));
          await dropCopies(message.person);
        } else if (before.loginNeeded) {
          await update((stored) => ({ ...stored, loginNeeded: false }));
        }
        answer(await tell());
        if (typeof message.locales === "string") await keepTranslations(message.locales);
        await replay();
        await copyFor(message.person);
        return;
      }
      case "dismiss":
        await update((stored) => ({ ...stored, refused: stored.refused.filter((r) => r.id !== message.id) }));
        answer(await tell());
        return;
      case "replay":
        answer(await tell());
        await replay();
        return;
      case "copy": {
        const { person } = await readStored();
        answer(await tell());
        if (person) await copyFor(person, true);
        return;
      }
      default:
        answer(await tell());
    }
  })();
  event.waitUntil(work);
});
