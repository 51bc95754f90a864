import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { renderInRouter } from "#tests/render-in-router";
import { resources } from "~/i18n.server";
import { TimeZoneProvider } from "~/lib/use-dates";
import { monthGrid } from "~/modules/maintenance/task-queries.server";
import { type CalendarData, TaskCalendar } from "./task-calendar";

/**
 * The calendar's days (decision 051): a day shows the entries it is given and, when it has more, one link
 * to the longer view the screen names, on the grid and in the phone's list of days alike.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources, defaultNS: "common", interpolation: { escapeValue: false } });
});

const grid = monthGrid("2031-06");
const data: CalendarData = {
  view: "month",
  month: "2031-06",
  days: grid.days,
  today: "2031-06-01",
  previous: "2031-05",
  next: "2031-07",
  current: "2031-06",
  entries: [
    { plannedMaintenanceId: 7, planName: "Filters", dueDate: "2031-06-02", dueTime: "09:00:00", tasks: 3, done: 1, place: null },
    { plannedMaintenanceId: 8, planName: "Lamps", dueDate: "2031-06-03", dueTime: null, tasks: 1, done: 0, place: "North · A" },
  ],
  more: ["2031-06-02"],
};

const render = () =>
  renderInRouter(
    i18n,
    <TimeZoneProvider value="Europe/Brussels">
      <TaskCalendar data={data} hrefFor={(anchor) => `/task?view=month&month=${anchor}`} moreHref={(day) => `/task?view=week&date=${day}`} />
    </TimeZoneProvider>,
  );

describe("the task calendar", () => {
  it("links a day with more entries to its longer view, once in the grid and once on a phone", async () => {
    const html = await render();
    const links = html.match(/<a[^>]*href="\/task\?view=week&amp;date=2031-06-02"[^>]*>More tasks<\/a>/g) ?? [];
    expect(links).toHaveLength(2);
    expect(links[0]).toContain('aria-label="More tasks on');
    expect(html).not.toContain("date=2031-06-03");
  });

  it("shows each entry with its locations or place and its progress, linking to the plan's day", async () => {
    const html = await render();
    expect(html).toContain('href="/view-task/7/2031-06-02"');
    expect(html).toContain("3 locations");
    expect(html).toContain("1 of 3 done");
    expect(html).toContain('href="/view-task/8/2031-06-03"');
    expect(html).toContain("North · A");
  });

  it("marks an entry overdue, in words, when its day is before today and a task of it is not done; a future or finished one is not", async () => {
    const overdueData: CalendarData = {
      ...data,
      today: "2031-06-10",
      more: [],
      entries: [
        { plannedMaintenanceId: 11, planName: "Past pending", dueDate: "2031-06-04", dueTime: null, tasks: 2, done: 1, place: null },
        { plannedMaintenanceId: 12, planName: "Past finished", dueDate: "2031-06-05", dueTime: null, tasks: 1, done: 1, place: "North · A" },
        { plannedMaintenanceId: 13, planName: "Today pending", dueDate: "2031-06-10", dueTime: null, tasks: 1, done: 0, place: "North · B" },
        { plannedMaintenanceId: 14, planName: "Future pending", dueDate: "2031-06-20", dueTime: null, tasks: 1, done: 0, place: "North · C" },
      ],
    };
    const html = await renderInRouter(
      i18n,
      <TimeZoneProvider value="Europe/Brussels">
        <TaskCalendar data={overdueData} hrefFor={(anchor) => `/task?view=month&month=${anchor}`} moreHref={(day) => `/task?view=week&date=${day}`} />
      </TimeZoneProvider>,
    );
    // Each entry's link, as drawn on the grid (the first of the two: grid, then the phone's list).
    const link = (id: number) => html.match(new RegExp(`<a[^>]*href="/view-task/${id}/[^"]*"[^>]*>.*?</a>`))?.[0] ?? "";
    expect(link(11)).toContain("Past pending");
    expect(link(11)).toContain('data-overdue="true"');
    expect(link(11)).toContain(">Overdue<");
    expect(link(11)).toMatch(/title="[^"]*Overdue/);
    for (const id of [12, 13, 14]) {
      expect(link(id)).toContain("/view-task/");
      expect(link(id)).not.toContain("data-overdue");
      expect(link(id)).not.toContain("Overdue");
    }
  });
});
