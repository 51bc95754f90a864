/**
 * Help links (SPEC.md section 1: "help links to a help site exist per area"). The help site lives at
 * HELP_BASE_URL (passed down from the server); each area of the product has one page under it,
 * `<HELP_BASE_URL>/<area>`. Client-safe: the header computes the link of the current screen.
 */
export const HELP_AREAS = [
  "getting-started",
  "dashboard",
  "users",
  "import-export",
  "facilities",
  "buildings",
  "rooms",
  "equipments",
  "incidents",
  "incident-types",
  "printing",
  "maintenance",
  "tasks",
  "configuration",
  "notifications",
  "settings",
] as const;
export type HelpArea = (typeof HELP_AREAS)[number];

/** First path segment of a screen → its help area. Screens not listed use "getting-started". */
const AREA_BY_SEGMENT: Record<string, HelpArea> = {
  dashboard: "dashboard",
  administration: "users",
  users: "users",
  "add-user": "users",
  "update-user": "users",
  "import-data": "import-export",
  facilities: "facilities",
  "add-facility": "facilities",
  "update-facility": "facilities",
  "add-building": "buildings",
  "update-building": "buildings",
  "view-room": "rooms",
  "add-room": "rooms",
  "update-room": "rooms",
  "room-type": "rooms",
  "add-room-type": "rooms",
  "update-room-type": "rooms",
  equipments: "equipments",
  "add-generic-equipment": "equipments",
  "update-equipment-type": "equipments",
  "update-category": "equipments",
  "add-equipment-category": "equipments",
  incidents: "incidents",
  incident: "incidents",
  "add-incident-type": "incident-types",
  "update-incident-type": "incident-types",
  printing: "printing",
  maintenances: "maintenance",
  "add-maintenance-type": "maintenance",
  "update-maintenance-type": "maintenance",
  "add-planned-maintenance": "maintenance",
  "update-planned-maintenance": "maintenance",
  task: "tasks",
  "view-task": "tasks",
  configuration: "configuration",
  notifications: "notifications",
  notification: "notifications",
  settings: "settings",
  tutorial: "getting-started",
};

/** Tabs that have their own help page (`/facilities?tab=rooms` → rooms). */
const AREA_BY_TAB: Record<string, HelpArea> = {
  buildings: "buildings",
  rooms: "rooms",
  "room-types": "rooms",
  types: "incident-types",
  "incident-types": "incident-types",
};

/** The help area of an address (path plus optional query string). */
export function helpAreaFor(pathname: string, search = ""): HelpArea {
  const segment = pathname.split("/").filter(Boolean)[0] ?? "";
  const tab = new URLSearchParams(search).get("tab");
  if (tab && AREA_BY_TAB[tab] && (segment === "facilities" || segment === "configuration" || segment === "incidents")) {
    return AREA_BY_TAB[tab];
  }
  return AREA_BY_SEGMENT[segment] ?? "getting-started";
}

/** `<base>/<area>`, without a doubled slash; null when no help site is configured. */
export function helpUrl(base: string | null | undefined, area: HelpArea): string | null {
  if (!base) return null;
  return `${base.replace(/\/+$/, "")}/${area}`;
}
