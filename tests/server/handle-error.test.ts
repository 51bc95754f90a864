import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "~/entry.server";
import { logger } from "~/lib/logger.server";

/** Remix's report of a failed request: only real failures reach the log. */
/** What the router answers itself (the shape `isRouteErrorResponse` recognises). */
const routerError = (status: number, statusText: string) => ({ status, statusText, internal: true, data: null });

describe("handleError", () => {
  afterEach(() => vi.restoreAllMocks());
  const args = (method = "POST", signal?: AbortSignal) => ({
    request: new Request("http://localhost/notification/1", { method, signal }),
    params: {},
    context: {},
  });

  it("does not log the router's own refusals (405, 404): the client gets the status", () => {
    const error = vi.spyOn(logger(), "error");
    handleError(routerError(405, "Method Not Allowed"), args());
    handleError(routerError(404, "Not Found"), args("GET"));
    expect(error).not.toHaveBeenCalled();
  });

  it("does not log a request the client abandoned", () => {
    const error = vi.spyOn(logger(), "error");
    const aborted = new AbortController();
    aborted.abort();
    handleError(new Error("socket closed"), args("GET", aborted.signal));
    expect(error).not.toHaveBeenCalled();
  });

  it("logs a real failure once, with the method and path", () => {
    const error = vi.spyOn(logger(), "error").mockImplementation(() => undefined);
    const failure = new Error("database gone");
    handleError(failure, args("GET"));
    handleError(routerError(500, "Internal Server Error"), args("GET"));
    expect(error).toHaveBeenCalledTimes(2);
    expect(error.mock.calls[0][0]).toMatchObject({ err: failure, method: "GET", path: "/notification/1" });
  });
});
