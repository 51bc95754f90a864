import { describe, expect, it } from "vitest";
import { taskListHref } from "./task-actions.server";

/** Marking a task done or undoing it comes back to the list or calendar it was done from, and nowhere else. */
describe("taskListHref", () => {
  it("keeps the list's and the calendar's parameters, the day's list included", () => {
    expect(taskListHref(new URL("http://x/task?day=2026-12-02&status=all&assignee=all&page=2"))).toBe("/task?status=all&assignee=all&page=2&day=2026-12-02");
    expect(taskListHref(new URL("http://x/task?view=week&date=2026-12-02&building=4"))).toBe("/task?view=week&building=4&date=2026-12-02");
  });

  it("drops anything else and any value that is not a plain word, so it never leads away", () => {
    expect(taskListHref(new URL("http://x/task?redirectTo=https://evil.example&q=x"))).toBe("/task");
    expect(taskListHref(new URL("http://x/task?day=//evil.example&status=a%00b&month=2026-12-0001"))).toBe("/task");
  });
});
