/**
 * The navigation menu of SPEC.md section 2, as data. Each link names the screen of
 * `app/route-access.ts` it opens, so the layout loader keeps only what the user's role may open
 * (`mayOpen`): a technician never sees a link that would send them to the forbidden page.
 * Client-safe: the components render the filtered menu and work out the active item.
 *
 * Labels are `shell:menu.groups.<id>` and `shell:menu.items.<id>`.
 */
export type MenuIcon =
  | "administration"
  | "dashboard"
  | "facility"
  | "incident"
  | "printing"
  | "report"
  | "maintenance"
  | "configuration"
  | "tutorial";

export interface MenuLink {
  kind: "link";
  id: string;
  /** Address the link opens (a tab or view of a screen may be a query parameter). */
  to: string;
  /** Screen id in route-access.ts whose access level decides who sees the link. */
  screen: string;
  /** Other screens (path prefixes) that belong to this item, for the highlight: add/update forms. */
  match?: string[];
  icon?: MenuIcon;
}

/** Opens a dialog of the layout (`?dialog=<dialog>`) on the current page. */
export interface MenuDialog {
  kind: "dialog";
  id: string;
  dialog: string;
  icon?: MenuIcon;
}

export interface MenuGroup {
  kind: "group";
  id: string;
  icon: MenuIcon;
  items: MenuLink[];
}

export type MenuEntry = MenuGroup | MenuLink | MenuDialog;

export const MENU: readonly MenuEntry[] = [
  {
    kind: "group",
    id: "administration",
    icon: "administration",
    items: [
      { kind: "link", id: "users", to: "/users", screen: "users", match: ["/administration", "/add-user", "/update-user/"] },
      { kind: "link", id: "importData", to: "/import-data", screen: "import-data" },
    ],
  },
  { kind: "link", id: "dashboard", to: "/dashboard", screen: "dashboard", icon: "dashboard" },
  {
    kind: "group",
    id: "facilityManagement",
    icon: "facility",
    items: [
      { kind: "link", id: "facilities", to: "/facilities", screen: "facilities", match: ["/add-facility", "/update-facility/", "/view-facility/"] },
      {
        kind: "link",
        id: "buildings",
        to: "/facilities?tab=buildings",
        screen: "facilities",
        match: ["/add-building", "/update-building/", "/view-building/"],
      },
      {
        kind: "link",
        id: "rooms",
        to: "/facilities?tab=rooms",
        screen: "facilities",
        match: ["/add-room", "/update-room/", "/room-type", "/add-room-type", "/update-room-type/", "/view-room/"],
      },
      {
        kind: "link",
        id: "equipments",
        to: "/equipments",
        screen: "equipments",
        match: ["/add-generic-equipment", "/update-equipment-type/", "/update-category/", "/add-equipment-category", "/view-equipment/"],
      },
    ],
  },
  {
    kind: "group",
    id: "incidentManagement",
    icon: "incident",
    items: [
      { kind: "link", id: "incidents", to: "/incidents", screen: "incidents", match: ["/incident/"] },
      // Incident types are configured by managers: a tab of /configuration (a manager screen), not of
      // /incidents (which technicians may open). See docs/decisions/009-shell.md.
      {
        kind: "link",
        id: "incidentTypes",
        to: "/configuration?tab=incident-types",
        screen: "configuration",
        match: ["/add-incident-type", "/update-incident-type/"],
      },
    ],
  },
  {
    kind: "group",
    id: "printing",
    icon: "printing",
    items: [
      { kind: "link", id: "qrCodes", to: "/printing", screen: "printing" },
      { kind: "link", id: "stickers", to: "/printing?tab=stickers", screen: "printing" },
    ],
  },
  { kind: "dialog", id: "report", dialog: "report", icon: "report" },
  {
    kind: "group",
    id: "maintenance",
    icon: "maintenance",
    items: [
      {
        kind: "link",
        id: "plannedMaintenances",
        to: "/maintenances",
        screen: "maintenances",
        match: ["/add-maintenance-type", "/update-maintenance-type/", "/add-planned-maintenance", "/update-planned-maintenance/"],
      },
      { kind: "link", id: "tasks", to: "/task", screen: "task", match: ["/view-task/"] },
      { kind: "link", id: "calendar", to: "/task?view=month", screen: "task" },
    ],
  },
  { kind: "link", id: "configuration", to: "/configuration", screen: "configuration", icon: "configuration" },
  { kind: "link", id: "tutorial", to: "/tutorial", screen: "tutorial", icon: "tutorial" },
];

/**
 * The menu as one user sees it: links they may not open are dropped, and so are groups left empty.
 * Dialog entries (the bug/suggestion report) are for every signed-in user.
 */
export function menuFor(mayOpenScreen: (screenId: string) => boolean, menu: readonly MenuEntry[] = MENU): MenuEntry[] {
  const result: MenuEntry[] = [];
  for (const entry of menu) {
    if (entry.kind === "group") {
      const items = entry.items.filter((item) => mayOpenScreen(item.screen));
      if (items.length) result.push({ ...entry, items });
    } else if (entry.kind === "link") {
      if (mayOpenScreen(entry.screen)) result.push(entry);
    } else {
      result.push(entry);
    }
  }
  return result;
}

function links(menu: readonly MenuEntry[]): MenuLink[] {
  return menu.flatMap((entry) => (entry.kind === "group" ? entry.items : entry.kind === "link" ? [entry] : []));
}

/**
 * The id of the link to highlight for an address: the link whose path and query parameters all
 * match, the most specific first (`/facilities?tab=rooms` is Rooms, `/facilities` Facilities); else
 * the link an add/update screen belongs to; else none.
 */
export function activeMenuId(menu: readonly MenuEntry[], pathname: string, search = ""): string | null {
  const params = new URLSearchParams(search);
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  let best: { id: string; score: number } | null = null;
  for (const link of links(menu)) {
    const url = new URL(link.to, "http://x");
    if (url.pathname !== path) continue;
    const wanted = [...url.searchParams.entries()];
    if (!wanted.every(([key, value]) => params.get(key) === value)) continue;
    if (!best || wanted.length > best.score) best = { id: link.id, score: wanted.length };
  }
  if (best) return best.id;
  for (const link of links(menu)) {
    if (link.match?.some((prefix) => (prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix))) return link.id;
  }
  return null;
}

/** The group holding a link id, if any (to open it on phones). */
export function groupOf(menu: readonly MenuEntry[], id: string | null): string | null {
  if (!id) return null;
  const group = menu.find((entry): entry is MenuGroup => entry.kind === "group" && entry.items.some((item) => item.id === id));
  return group?.id ?? null;
}
