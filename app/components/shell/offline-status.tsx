import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "@remix-run/react";
import { KEPT_AT_HEADER, keptCacheName, OFFLINE_CHANNEL, type OfflineState, type RefusedWrite } from "~/lib/offline-rules";
import { useDates } from "~/lib/use-dates";
import { useHydrated } from "~/lib/use-hydrated";

type Message = { type: "hello"; person: string; locales?: string } | { type: "replay" } | { type: "dismiss"; id: string } | { type: "copy" };

/** How often waiting posts are tried again while the page is online. */
const RETRY_MS = 15_000;

/** Asks a worker and waits for its answer, which comes back on a message channel of its own. */
function ask(worker: ServiceWorker, message: Message): Promise<OfflineState | undefined> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<OfflineState | undefined>) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
  });
}

/** The page's line to the active service worker of this scope, once there is one. */
let send: ((message: Message) => Promise<OfflineState | undefined>) | null = null;

/**
 * Registers the service worker of signed-in staff (issue 64, decision 067) and says who is signed in, so it
 * keeps that person's pages and nobody else's. Without service workers (or JavaScript) nothing happens and
 * every page works online as before. The platform's own calls suffice here: the page only registers the
 * worker and asks it questions; updates and caching are the worker's (Workbox, in `app/service-worker`).
 */
async function register(person: string): Promise<OfflineState | undefined> {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return undefined;
  void navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  // Messages go to the active worker, once there is one (the first visit waits for its install).
  send = async (message) => {
    const { active } = await navigator.serviceWorker.ready;
    return active ? ask(active, message) : undefined;
  };
  // The page's translations (app/i18n.client.ts) are kept with the copy: a kept page starts with them.
  const { lang, dataset } = document.documentElement;
  const locales = `/locales/${encodeURIComponent(lang)}.json${dataset.i18n ? `?v=${encodeURIComponent(dataset.i18n)}` : ""}`;
  return send({ type: "hello", person, locales });
}

/**
 * While the browser says it is offline, a link or a form is left to the browser (a page load or a plain
 * post, which the service worker answers from the kept copy or queues) rather than to the app's router,
 * whose data requests have no copy. Listening on the window before the page's own handlers does that.
 */
function leaveToBrowser(event: Event) {
  if (navigator.onLine) return;
  if (event.type === "click") {
    const click = event as MouseEvent;
    if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return;
    const link = (click.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
    if (new URL(link.href, location.href).origin !== location.origin) return;
  }
  event.stopPropagation();
}

/** The person's offline state: the kept copy, the waiting posts and what the server refused. */
function useOfflineState(person: string) {
  const hydrated = useHydrated();
  const [state, setState] = useState<OfflineState | null>(null);
  const [online, setOnline] = useState(true);
  const [pageKeptAt, setPageKeptAt] = useState<string | null>(null);

  useEffect(() => {
    if (!hydrated) return;
    let channel: BroadcastChannel | null = null;
    if ("BroadcastChannel" in window) {
      channel = new BroadcastChannel(OFFLINE_CHANNEL);
      channel.onmessage = (event: MessageEvent<OfflineState>) => {
        if (event.data?.person === person || event.data?.person === null) setState(event.data);
      };
    }
    register(person)
      .then((first) => first && setState(first))
      .catch(() => undefined);
    const onOnline = () => {
      setOnline(true);
      void send?.({ type: "replay" }).catch(() => undefined);
    };
    const onOffline = () => setOnline(false);
    setOnline(navigator.onLine);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    window.addEventListener("click", leaveToBrowser, true);
    window.addEventListener("submit", leaveToBrowser, true);
    return () => {
      channel?.close();
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("click", leaveToBrowser, true);
      window.removeEventListener("submit", leaveToBrowser, true);
    };
  }, [hydrated, person]);

  // When this page is shown from the kept copy: when it was saved.
  useEffect(() => {
    if (online || !("caches" in window)) return;
    let live = true;
    caches
      .open(keptCacheName(person))
      .then((cache) => cache.match(location.href))
      .then((kept) => live && setPageKeptAt(kept?.headers.get(KEPT_AT_HEADER) ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [online, person]);

  // While posts wait and the browser says it is online, the worker is asked again now and then: a network
  // that came back without an "online" event (a weak signal) still gets them sent.
  const waiting = state?.waiting ?? 0;
  useEffect(() => {
    if (!online || waiting === 0) return;
    const timer = window.setInterval(() => void send?.({ type: "replay" }).catch(() => undefined), RETRY_MS);
    return () => window.clearInterval(timer);
  }, [online, waiting]);

  return { state, online, pageKeptAt };
}

/** "Waiting to send (3)", the offline banner and the refused posts, above the screen (nothing without JavaScript). */
export function OfflineStatus({ person }: { person: string }) {
  const { t } = useTranslation("shell");
  const dates = useDates();
  const { state, online, pageKeptAt } = useOfflineState(person);
  const waiting = state?.waiting ?? 0;
  const refused = state?.refused ?? [];
  if (online && waiting === 0 && refused.length === 0 && !state?.loginNeeded) return null;
  return (
    <div className="mb-4 grid gap-2" data-offline-status="">
      {!online ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm font-medium text-amber-950">
          {pageKeptAt ? t("offline.banner.saved", { time: dates.time(pageKeptAt) }) : t("offline.banner.notSaved")}{" "}
          <Link to="/offline" reloadDocument className="underline underline-offset-4">
            {t("offline.banner.available")}
          </Link>
        </p>
      ) : null}
      <p role="status" className={waiting ? "rounded-md border bg-card px-4 py-2 text-sm font-medium" : "sr-only"}>
        {waiting ? t("offline.waiting", { count: waiting }) : ""}
      </p>
      {state?.loginNeeded ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-4 py-2 text-sm font-medium">
          {t("offline.loginNeeded")}{" "}
          <a href="/login" className="underline underline-offset-4">
            {t("offline.login")}
          </a>
        </p>
      ) : null}
      {refused.map((write) => (
        <Refused key={write.id} write={write} />
      ))}
    </div>
  );
}

function Refused({ write }: { write: RefusedWrite }) {
  const { t } = useTranslation("shell");
  const dates = useDates();
  return (
    <div role="alert" className="flex flex-wrap items-start gap-3 rounded-md border border-destructive/40 bg-destructive/5 px-4 py-2 text-sm">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="font-medium">
          {t("offline.refused.title", { what: t(`offline.refused.what.${write.kind}.${write.intent}`), time: dates.time(write.madeAt) })}{" "}
          <a href={write.path} className="underline underline-offset-4">
            {t("offline.refused.open")}
          </a>
        </p>
        <p>{write.reasons.length ? write.reasons.join(" ") : t("offline.refused.status", { status: write.status })}</p>
      </div>
      <button type="button" className="font-medium underline underline-offset-4" onClick={() => void send?.({ type: "dismiss", id: write.id })}>
        {t("offline.refused.dismiss")}
      </button>
    </div>
  );
}
