import { describe, expect, it } from "vitest";
import { isPersonKey, keptCacheName, mayKeep, mayKeepFile, personKey, queuedWrite, refusalReasons, replayOutcome } from "./offline-rules";

const ORIGIN = "https://caretaker.example";
const at = (path: string) => new URL(path, ORIGIN);

describe("personKey", () => {
  it("names one person of one entity, and nothing else passes for one", () => {
    expect(personKey(3, 17)).toBe("e3-u17");
    expect(keptCacheName("e3-u17")).toBe("caretaker-kept-e3-u17");
    expect(isPersonKey("e3-u17")).toBe(true);
    for (const bad of ["", "e0-u1", "e3-u", "e3-u17/../x", "e3-u17 ", "3-17", null, 5]) expect(isPersonKey(bad)).toBe(false);
  });
});

describe("queuedWrite: what waits for the network", () => {
  it("queues marking a task done or undone, on the task list or the task's page, and time recorded on the task", () => {
    expect(queuedWrite(at("/task"), "POST", "done")).toEqual({ kind: "task", intent: "done" });
    expect(queuedWrite(at("/task?status=pending&page=2"), "POST", "undo")).toEqual({ kind: "task", intent: "undo" });
    expect(queuedWrite(at("/view-task/12/2026-12-07"), "post", "done")).toEqual({ kind: "task", intent: "done" });
    expect(queuedWrite(at("/view-task/12/2026-12-07?task=5"), "POST", "recordTime")).toEqual({ kind: "task", intent: "recordTime" });
  });

  it("queues an incident's status change, a comment and recorded time", () => {
    for (const intent of ["status", "comment", "recordTime"]) expect(queuedWrite(at("/incident/40"), "POST", intent)).toEqual({ kind: "incident", intent });
  });

  it("does not queue anything else: other intents, other pages, reads, or a post without an intent", () => {
    expect(queuedWrite(at("/incident/40"), "POST", "assign")).toBeNull();
    expect(queuedWrite(at("/incident/40"), "POST", "deleteComment")).toBeNull();
    expect(queuedWrite(at("/incident/40"), "POST", "startClock")).toBeNull();
    expect(queuedWrite(at("/incident/40"), "GET", "comment")).toBeNull();
    expect(queuedWrite(at("/incident/40"), "POST", null)).toBeNull();
    expect(queuedWrite(at("/update-room/4"), "POST", "save")).toBeNull();
    expect(queuedWrite(at("/incident/40/work-order.pdf"), "POST", "comment")).toBeNull();
    expect(queuedWrite(at("/view-task/12/tomorrow"), "POST", "done")).toBeNull();
    expect(queuedWrite(at("/api/incidents/40"), "POST", "status")).toBeNull();
  });
});

describe("mayKeep: which addresses a copy may hold", () => {
  it("keeps the app's own screens", () => {
    for (const path of ["/offline", "/task", "/incidents", "/incident/4", "/view-task/1/2026-12-07", "/view-room/9", "/task?view=week"]) expect(mayKeep(at(path), ORIGIN), path).toBe(true);
  });

  it("never keeps another site, the API, files, data requests, the occupier's pages or the session's own", () => {
    const refused = [
      "https://elsewhere.example/task",
      "/api/incidents",
      "/files/0b7c5f3e-5b1a-4c1e-9a49-0d6d5e1f2a3b",
      "/task.data",
      "/report/K7QW2MZP9XH4C",
      "/login",
      "/logout",
      "/import-data",
      "/printing/qr-codes.pdf",
      "/incident/4/work-order.pdf",
      "/locales/en.json",
    ];
    for (const path of refused) expect(mayKeep(at(path), ORIGIN), path).toBe(false);
    expect(mayKeep(new URL("https://user:pw@caretaker.example/task"), ORIGIN)).toBe(false);
  });

  it("keeps a stored file only by its plain address", () => {
    expect(mayKeepFile(at("/files/0b7c5f3e-5b1a-4c1e-9a49-0d6d5e1f2a3b"), ORIGIN)).toBe(true);
    expect(mayKeepFile(at("/files/0b7c5f3e-5b1a-4c1e-9a49-0d6d5e1f2a3b?download=1"), ORIGIN)).toBe(false);
    expect(mayKeepFile(at("/files/../task"), ORIGIN)).toBe(false);
    expect(mayKeepFile(new URL("https://elsewhere.example/files/0b7c5f3e-5b1a-4c1e-9a49-0d6d5e1f2a3b"), ORIGIN)).toBe(false);
  });
});

describe("replayOutcome: what a replayed post came to", () => {
  const page = (body: string) => `<!doctype html><html><body><main>${body}</main></body></html>`;

  it("is sent when the app answers with its page and no refusal", () => {
    expect(replayOutcome({ status: 200, finalPath: "/incident/4", html: page('<li data-type="success"><p>Comment posted</p></li>') })).toEqual({ kind: "sent" });
  });

  it("is refused, with the server's own words, on a field error, an error toast, a 404 or the forbidden page", () => {
    const field = page('<div id="minutes-error"><p data-refusal="">Enter at least one minute and at most 24 hours.</p></div>');
    expect(replayOutcome({ status: 400, finalPath: "/view-task/1/2026-12-07", html: field })).toEqual({
      kind: "refused",
      status: 400,
      reasons: ["Enter at least one minute and at most 24 hours."],
    });
    const toast = page('<p><span class="sr-only">Error: </span><span data-refusal="">Could not post the comment &amp; its files.</span></p>');
    expect(replayOutcome({ status: 200, finalPath: "/incident/4", html: toast })).toEqual({ kind: "refused", status: 200, reasons: ["Could not post the comment & its files."] });
    expect(replayOutcome({ status: 404, finalPath: "/incident/4", html: page('<div role="alert"><span data-refusal="">Incident not found</span></div>') })).toEqual({
      kind: "refused",
      status: 404,
      reasons: ["Incident not found"],
    });
    expect(replayOutcome({ status: 403, finalPath: "/forbidden", html: page("<h1>Forbidden</h1>") })).toEqual({ kind: "refused", status: 403, reasons: [] });
  });

  it("waits for a login when the session has ended, and tries again later after a server or rate-limit failure", () => {
    expect(replayOutcome({ status: 200, finalPath: "/login", html: page("<h1>Login</h1>") })).toEqual({ kind: "login" });
    expect(replayOutcome({ status: 401, finalPath: "/incident/4", html: "" })).toEqual({ kind: "login" });
    for (const status of [500, 502, 503, 429, 408]) expect(replayOutcome({ status, finalPath: "/incident/4", html: "" })).toEqual({ kind: "retry" });
  });
});

describe("refusalReasons", () => {
  it("reads the marked texts in page order, once each, with entities decoded and inner tags dropped", () => {
    const html =
      '<p data-refusal="">L&#x27;incident est <b>fermé</b>.</p><p>ignored</p><span data-refusal="">L&#39;incident est fermé.</span><p data-refusal="">Second&nbsp;reason</p>';
    expect(refusalReasons(html)).toEqual(["L'incident est fermé .", "L'incident est fermé.", "Second reason"]);
  });

  it("ignores attributes that only look alike and keeps at most five", () => {
    expect(refusalReasons('<p data-refusals="">no</p><p data-refusal-x="">no</p>')).toEqual([]);
    const many = Array.from({ length: 8 }, (_, i) => `<p data-refusal="">Reason ${i}</p>`).join("");
    expect(refusalReasons(many)).toHaveLength(5);
  });
});
