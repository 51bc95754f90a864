import i18next from "i18next";
import type { ReactElement } from "react";
import { initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { renderInRouter, renderRoutes } from "#tests/render-in-router";
import { NotificationType } from "~/db/enums";
import { resources } from "~/i18n.server";
import { TimeZoneProvider } from "~/lib/use-dates";
import type { ReportStatus } from "~/modules/occupier-reports/status.server";
import ReportStatusPage from "~/routes/report-status";
import { DateTime } from "./incidents/view/format";
import { NotificationList } from "./notifications/notification-list";

/**
 * The screens write their dates in the time zone they are given (the root layout provides the signed-in
 * entity's, the reporter's status page the zone of the report's entity), in one style: "Nov 1, 2026,
 * 1:30 AM" on the notifications as on the incident view.
 */
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: "en", resources, defaultNS: "common", interpolation: { escapeValue: false } });
});

const plain = (html: string) => html.replace(/[\u00a0\u202f]|&nbsp;/g, " ");
const inZone = (timeZone: string, element: ReactElement) => renderInRouter(i18n, <TimeZoneProvider value={timeZone}>{element}</TimeZoneProvider>).then(plain);

// 05:30 and 06:30 UTC on 1 November 2026: 01:30 in New York twice (summer time, then winter time).
const FIRST = "2026-11-01T05:30:00.000Z";
const SECOND = "2026-11-01T06:30:00.000Z";

describe("the incident view's dates", () => {
  it("are in the zone given, on both sides of New York's change", async () => {
    expect(await inZone("America/New_York", <DateTime iso={FIRST} />)).toBe(`<time dateTime="${FIRST}">Nov 1, 2026, 1:30 AM</time>`);
    expect(await inZone("America/New_York", <DateTime iso={SECOND} />)).toContain("Nov 1, 2026, 1:30 AM");
    expect(await inZone("Europe/Brussels", <DateTime iso={FIRST} />)).toContain("Nov 1, 2026, 6:30 AM");
    expect(await inZone("Europe/Brussels", <DateTime iso={SECOND} />)).toContain("Nov 1, 2026, 7:30 AM");
  });
});

describe("the notifications list's dates", () => {
  const page = {
    items: [{ id: 1, notificationDetailsId: 1, read: false, creationDate: "2026-03-08T07:30:00.000Z", type: NotificationType.INCIDENT_CREATED, subject: "Leak", message: {}, incidentId: 7 }],
    total: 1,
    page: 1,
    size: 25,
  };
  it("are in the zone given, in the same style as the incident view", async () => {
    // 07:30 UTC on 8 March: 03:30 in New York (its first hour of summer time), 08:30 in Brussels.
    expect(await inZone("America/New_York", <NotificationList page={page} unreadOnly={false} />)).toContain("Received Mar 8, 2026, 3:30 AM");
    expect(await inZone("Europe/Brussels", <NotificationList page={page} unreadOnly={false} />)).toContain("Received Mar 8, 2026, 8:30 AM");
  });
});

describe("the reporter's status page", () => {
  const status = (timeZone: string): ReportStatus => ({
    shortId: 12,
    title: "Leak",
    status: 0,
    createdAt: "2026-03-08T06:30:00.000Z",
    lastOccurrenceAt: "2026-03-08T07:30:00.000Z",
    place: { facility: "Campus", building: "Main", room: "Hall", floor: null },
    entity: { name: "Springfield", color: "#1e3a8a", textColor: "#ffffff", timeZone },
    history: [{ type: 0, at: "2026-03-08T06:30:00.000Z" }],
  });
  const page = (timeZone: string) =>
    renderRoutes(i18n, [{ path: "*", loader: () => ({ status: status(timeZone) }), Component: ReportStatusPage }]).then(plain);

  it("writes the dates in the zone of the report's entity, whatever the visitor's", async () => {
    const ny = await page("America/New_York");
    expect(ny).toContain("Mar 8, 2026, 1:30 AM"); // winter time, just before the change
    expect(ny).toContain("Mar 8, 2026, 3:30 AM"); // an hour later, summer time
    const brussels = await page("Europe/Brussels");
    expect(brussels).toContain("Mar 8, 2026, 7:30 AM");
    expect(brussels).toContain("Mar 8, 2026, 8:30 AM");
  });
});
