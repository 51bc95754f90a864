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

/**
 * A screen's help area from the first segment of its path: without its `add-`, `update-` or `view-`
 * prefix, the area of that name or its plural (`update-building` → buildings, `view-task` → tasks),
 * else one of these (`update-equipment-type` → equipments). Others use "getting-started".
 */
const AREA_BY_NAME: Record<string, HelpArea> = {
  administration: "users",
  "import-data": "import-export",
  facility: "facilities",
  "room-type": "rooms",
  "generic-equipment": "equipments",
  "equipment-type": "equipments",
  "equipment-category": "equipments",
  category: "equipments",
  maintenances: "maintenance",
  "maintenance-type": "maintenance",
  "planned-maintenance": "maintenance",
};

function areaOfSegment(segment: string): HelpArea {
  const name = segment.replace(/^(add|update|view)-/, "");
  return AREA_BY_NAME[name] ?? HELP_AREAS.find((a) => a === name || a === `${name}s`) ?? "getting-started";
}

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
  return areaOfSegment(segment);
}

/** `<base>/<area>`, without a doubled slash; null when no help site is configured. */
export function helpUrl(base: string | null | undefined, area: HelpArea): string | null {
  if (!base) return null;
  return `${base.replace(/\/+$/, "")}/${area}`;
}
