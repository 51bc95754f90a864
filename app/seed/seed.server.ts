/**
 * Demo data (`seedDemo`, run automatically on a fresh embedded database and by `npm run seed`) and
 * benchmark data (`seedScale`, `npm run seed -- --scale N`).
 *
 * The demo seed uses the test factories (by design: one way to make rows, shared by tests and seed)
 * and a seeded PRNG, so its content and counts are the same on every run; only the dates move with
 * "now". The scale seed uses set-based SQL (`insert ... select ... from generate_series(...)`).
 */
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { type FileStore, userContext } from "~/core/context.server";
import { type UnitOfWork, type UowHost, withTx } from "~/core/unit-of-work.server";
import { createCategory, createEquipmentType } from "~/modules/equipment/service.server";
import { updateEquipmentItem } from "~/modules/equipment/items.server";
import { createBuilding, createFacility } from "~/modules/facilities/service.server";
import { createRoom, createRoomType } from "~/modules/rooms/service.server";
import { createEntity, createIncident, createChecklistAnswers, createIncidentComment, createIncidentCommentFile, createIncidentEvent, createIncidentEvents, createIncidentFile, createIncidentType, createMaintenanceType, createNotification, createPlannedMaintenance, createTask, createUser, DEFAULT_PASSWORD, linkUserTo, patternPng, type PngPattern, type Rgb, createRoomType as createRoomTypeRow } from "./factories";
import { DESCRIPTION_ADDITIONS, DESCRIPTION_ENDINGS, DONE_COMMENTS, DUPLICATE_COMMENT, type EquipmentKey, type IncidentTypeKey, inLang, type Lang, PHOTO_COMMENT, type Problem, PROBLEMS, PROGRESS_COMMENTS, REJECTED_COMMENTS, type RoomTypeKey, type Texts, TYPE_COMMENTS, VAGUE_TITLES } from "./demo-texts";
import type { Db } from "~/db/client.server";
import { IncidentEventType, IncidentStatus, IncidentTypeStatus, type IncidentPriority, NotificationType, ObjectType, Priority, Role, RoomLinkType, TaskStatus, TimeMeasure, UserLanguage, UserStatus } from "~/db/enums";
import { REPORT_CODE_ALPHABET, REPORT_CODE_LENGTH } from "~/db/report-identifier";
import { addDays, DEFAULT_TIME_ZONE, dayIn, localInstant } from "~/lib/dates";
import { regeneratePlans } from "~/modules/maintenance/generation.server";
import { occurrenceDates } from "~/modules/maintenance/recurrence";
import { addMaintenanceCheck } from "~/modules/maintenance/inspections.server";
import { completeTask } from "~/modules/maintenance/tasks.server";
import { entities, incidentReporters, incidents, materialLines, timeEntries, type User, users } from "~/db/schema";
import { storeFile } from "~/modules/files/storage.server";
import { reserveShortIds } from "~/db/short-id.server";
import { type ClockStep, replayIncidentClocks } from "~/modules/service-levels/clocks.server";
import { addPublicHolidays, setTargets, setWarningLead, setWorkingWeek } from "~/modules/service-levels/service.server";
import type { WorkingCalendar } from "~/modules/service-levels/calendar";
import { workingCalendar } from "~/modules/service-levels/queries.server";
import { TARGET_PRIORITIES, type TargetPriority, type TargetsInput } from "~/modules/service-levels/schema";
import { clockMinutesBetween } from "~/modules/service-levels/working-time";

/** The password of every demo and scale account. */
export const DEMO_PASSWORD = DEFAULT_PASSWORD;

export const DEMO_ACCOUNTS = {
  admin: "admin@demo.test",
  manager: "manager@demo.test",
  technician: "technician@demo.test",
  /** Administrator of the second entity ("Other Org"). */
  other: "other@demo.test",
  /** A technician whose account was disabled: login shows the deactivated-account message. */
  disabled: "disabled@demo.test",
} as const;

export const SCALE_ACCOUNTS = {
  admin: "scale-admin@demo.test",
  manager: "scale-manager@demo.test",
  technician: "scale-tech@demo.test",
} as const;

export const DEMO_ENTITY_NAME = "Demo Campus";
export const OTHER_ENTITY_NAME = "Other Org";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/** mulberry32: a tiny seeded PRNG, so the demo data is the same on every run. */
export function createRng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** One key of `weights`, with probability proportional to its weight. */
    weighted: <K extends string | number>(weights: readonly (readonly [K, number])[]): K => {
      const total = weights.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [key, w] of weights) {
        roll -= w;
        if (roll < 0) return key;
      }
      return weights[weights.length - 1][0];
    },
  };
}
type Rng = ReturnType<typeof createRng>;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function userExists(db: Db, email: string): Promise<{ id: number; entityId: number } | undefined> {
  const [row] = await rows<{ id: number; entity_id: number }>(
    db,
    sql`select id, entity_id from users where lower(email) = lower(${email}) limit 1`,
  );
  return row ? { id: row.id, entityId: row.entity_id } : undefined;
}

function fullName(user: User): string {
  return `${user.name} ${user.surname}`;
}

// ---------------------------------------------------------------------------
// Demo seed
// ---------------------------------------------------------------------------

export interface SeedDemoOptions {
  /** The moment the data is relative to (default: now). */
  now?: Date;
  /** Where the demo photos are stored (the app's files folder; default: a folder in the system's temp). */
  files?: FileStore;
  /** Told each part of the demo data as it begins ("rooms", "incidents", ...), for a progress display. */
  onStep?: SeedStep;
}

/** Called with the name of each part of the demo data as the seed begins it. */
export type SeedStep = (step: string) => void;

/**
 * Creates the demo data in one transaction: "Demo Campus" (3 facilities, 8 buildings, 31 rooms,
 * equipment, 10 incident types with checklists, service levels, 60 incidents over the last 6 months
 * with their service-level clocks, time and material on some, maintenance, notifications; the accounts
 * of DEMO_ACCOUNTS) and a small second entity "Other Org". The incidents
 * are written as occupiers report them, mostly in English, some in French and Dutch (demo-texts.ts),
 * with their checklist answers, photos (generated PNGs stored in `files`), comments and an event
 * history that replays to their current state, one of them closed as a duplicate of another.
 * Idempotent: when the demo administrator exists, nothing happens and `created` is false.
 */
export async function seedDemo(db: Db, options: SeedDemoOptions = {}): Promise<{ created: boolean }> {
  const now = options.now ?? new Date();
  // The verbs join this one unit of work; the demo photos go to `files`.
  const files: FileStore = options.files ?? { root: path.join(os.tmpdir(), "caretaker-seed-files"), maxBytes: 10 * 1024 * 1024 };
  return withTx<UowHost, { created: boolean }>({ db }, async (tx) => {
    if (await userExists(tx.db, DEMO_ACCOUNTS.admin)) return { created: false };
    const rng = createRng(20240601);
    const services: SeedServices = { db: tx.db, uow: tx.uow, files, step: options.onStep ?? (() => {}) };
    await seedDemoCampus(services, rng, now);
    services.step("a second organisation");
    await seedOtherOrg(services, now);
    return { created: true };
  });
}

/** What the demo seed passes to the service verbs: the seed's transaction and a file store. */
interface SeedServices {
  db: Db;
  uow: UnitOfWork | undefined;
  files: FileStore;
  step: SeedStep;
}

/** The context of a demo administrator: the seed creates what the verbs can create as that user would (the demo entity keeps the default time zone). */
function actingAs(services: SeedServices, user: User) {
  const ctx = userContext({ db: services.db, queue: null, events: null }, { ...user, timeZone: DEFAULT_TIME_ZONE }, { locale: "en", requestId: "seed" });
  return { ...ctx, uow: services.uow, files: services.files };
}

/** Seeds the demo data when the database has no entity at all; returns whether it did. */
export async function seedDemoIfEmpty(db: Db, files?: FileStore, onStep?: SeedStep): Promise<boolean> {
  const [row] = await rows<{ empty: boolean }>(db, sql`select not exists (select 1 from entities) as empty`);
  if (!row.empty) return false;
  const { created } = await seedDemo(db, { files, onStep });
  return created;
}

/**
 * A checklist item of a demo incident type, with how demo reporters usually answer it (a problem of
 * demo-texts.ts may answer otherwise): `yes`, the share of "yes" to a yes/no question; `range`, the
 * numbers answered; `texts`, the texts answered. A photo (content type 3) is the incident's image.
 */
interface ChecklistSpec {
  /** In English, French and Dutch: reporters read (and the answers keep) their language's. */
  question: string;
  questionFr: string;
  questionNl: string;
  tutorialLink?: string;
  message?: string;
  contentType: 0 | 1 | 2 | 3;
  yes?: number;
  range?: [number, number];
  texts?: (Texts | string)[];
}

const ROOM_TYPES: { key: RoomTypeKey; name: string; tags: string[]; rating?: [string, string, string] }[] = [
  { key: "office", name: "Office", tags: ["workspace"] },
  {
    key: "meeting",
    name: "Meeting room",
    tags: ["meeting", "bookable"],
    rating: ["How was your meeting room?", "Comment était votre salle de réunion ?", "Hoe was uw vergaderzaal?"],
  },
  { key: "lab", name: "Laboratory", tags: ["lab", "safety"] },
  {
    key: "sanitary",
    name: "Sanitary",
    tags: ["cleaning"],
    rating: ["How clean is this room?", "Cette pièce est-elle propre ?", "Hoe proper is deze ruimte?"],
  },
];

const ROOM_TYPE_LABEL: Record<RoomTypeKey, string> = {
  office: "Office",
  meeting: "Meeting room",
  lab: "Lab",
  sanitary: "Toilets",
};

const CATEGORIES = [
  { name: "Audio-visual", tags: ["av", "it"] },
  { name: "Heating & cooling", tags: ["hvac"] },
  { name: "Lab & kitchen", tags: ["appliance"] },
];

const EQUIPMENT_TYPES: { key: EquipmentKey; name: string; category: number; notes: string; tags: string[] }[] = [
  { key: "PRJ", name: "Projector", category: 0, notes: "Ceiling-mounted, HDMI and USB-C inputs.", tags: ["av"] },
  { key: "SCR", name: "Display screen", category: 0, notes: "65-inch wall screen.", tags: ["av"] },
  {
    key: "ACU",
    name: "Air conditioning unit",
    category: 1,
    notes: "Split unit, filter every 3 months.",
    tags: ["hvac"],
  },
  { key: "RAD", name: "Radiator", category: 1, notes: "Thermostatic valve.", tags: ["hvac", "heating"] },
  { key: "FMH", name: "Fume hood", category: 2, notes: "Yearly airflow certification.", tags: ["lab", "safety"] },
  { key: "COF", name: "Coffee machine", category: 2, notes: "Descale monthly.", tags: ["kitchen"] },
];

interface BuildingSpec {
  name: string;
  code: string;
  number: string;
  rooms: number;
  lab?: boolean;
}
const FACILITIES: {
  name: string;
  description: string;
  street: string;
  postalCode: string;
  city: string;
  buildings: BuildingSpec[];
}[] = [
  {
    name: "Main Campus",
    description: "Administration, library and auditorium.",
    street: "Boulevard du Triomphe",
    postalCode: "1050",
    city: "Brussels",
    buildings: [
      { name: "Administration", code: "ADM", number: "1", rooms: 4 },
      { name: "Library", code: "LIB", number: "3", rooms: 3 },
      { name: "Auditorium", code: "AUD", number: "5", rooms: 5 },
    ],
  },
  {
    name: "Science Park",
    description: "Research laboratories.",
    street: "Kapeldreef",
    postalCode: "3001",
    city: "Leuven",
    buildings: [
      { name: "Lab Building A", code: "LBA", number: "60", rooms: 5, lab: true },
      { name: "Lab Building B", code: "LBB", number: "62", rooms: 4, lab: true },
    ],
  },
  {
    name: "Harbour Site",
    description: "Logistics and technical workshops.",
    street: "Noorderlaan",
    postalCode: "2030",
    city: "Antwerpen",
    buildings: [
      { name: "Warehouse", code: "WHS", number: "100", rooms: 3 },
      { name: "Workshop", code: "WSP", number: "102", rooms: 4 },
      { name: "Offices", code: "OFF", number: "104", rooms: 3 },
    ],
  },
];

const ROOM_PATTERN: RoomTypeKey[] = ["office", "meeting", "sanitary", "office", "meeting"];
const LAB_ROOM_PATTERN: RoomTypeKey[] = ["lab", "meeting", "sanitary", "lab", "office"];

const INCIDENT_TYPES: {
  key: IncidentTypeKey;
  en: string;
  fr: string;
  nl: string;
  priority: Priority;
  reporterMayChangePriority: boolean;
  assignees: ("manager" | "technician")[];
  roomTypes: RoomTypeKey[];
  equipment: EquipmentKey[];
  /** Offered in every room and on every equipment item of the entity (its incidents land in any room). */
  everywhere?: boolean;
  /** Checklist items; `contentType` is what the reporter answers: yes/no 0, text 1, number 2, photo 3. */
  checklist: ChecklistSpec[];
  weight: number;
}[] = [
  {
    key: "equipment",
    en: "Broken equipment",
    fr: "Équipement défectueux",
    nl: "Defect toestel",
    priority: Priority.HIGH,
    reporterMayChangePriority: false,
    assignees: ["technician"],
    roomTypes: ["office", "meeting"],
    equipment: ["PRJ", "SCR", "COF"],
    checklist: [
      {
        question: "Is the device plugged in and switched on?", questionFr: "L'appareil est-il branché et allumé ?", questionNl: "Is het toestel aangesloten en ingeschakeld?",
        tutorialLink: "https://help.caretaker.example/equipment/first-checks",
        contentType: 0,
        yes: 0.9,
      },
      {
        question: "What does the device show or do?", questionFr: "Qu'affiche ou que fait l'appareil ?", questionNl: "Wat toont of doet het toestel?",
        contentType: 1,
        texts: [["It does not react at all.", "Il ne réagit pas du tout.", "Het reageert helemaal niet."]],
      },
    ],
    weight: 20,
  },
  {
    key: "climate",
    en: "Heating or cooling problem",
    fr: "Problème de chauffage ou de climatisation",
    nl: "Probleem met verwarming of koeling",
    priority: Priority.MEDIUM,
    reporterMayChangePriority: false,
    assignees: ["technician"],
    roomTypes: ["office", "meeting", "lab"],
    equipment: ["RAD", "ACU"],
    checklist: [
      { question: "What temperature does the room thermometer show?", questionFr: "Quelle température indique le thermomètre du local ?", questionNl: "Welke temperatuur toont de thermometer in het lokaal?", contentType: 2, range: [18, 22] },
      { question: "Is a window or door left open nearby?", questionFr: "Une fenêtre ou une porte est-elle restée ouverte à proximité ?", questionNl: "Staat er in de buurt een raam of deur open?", contentType: 0, yes: 0.15 },
    ],
    weight: 20,
  },
  {
    key: "cleaning",
    en: "Cleaning needed",
    fr: "Nettoyage nécessaire",
    nl: "Schoonmaak nodig",
    priority: Priority.LOW,
    reporterMayChangePriority: true,
    assignees: [],
    roomTypes: ["sanitary", "office", "meeting"],
    equipment: [],
    checklist: [
      {
        question: "What needs cleaning?", questionFr: "Qu'est-ce qui doit être nettoyé ?", questionNl: "Wat moet er schoongemaakt worden?",
        contentType: 1,
        texts: [["The whole room.", "Toute la pièce.", "Het hele lokaal."]],
      },
    ],
    weight: 18,
  },
  {
    key: "leak",
    en: "Water leak",
    fr: "Fuite d'eau",
    nl: "Waterlek",
    priority: Priority.CRITICAL,
    reporterMayChangePriority: false,
    assignees: ["manager"],
    roomTypes: ["sanitary", "lab"],
    equipment: [],
    checklist: [
      {
        question: "Is the water close to electrical equipment?", questionFr: "L'eau est-elle proche d'appareils électriques ?", questionNl: "Staat het water dicht bij elektrische toestellen?",
        message: "If it is, keep away and call security at extension 112.",
        contentType: 0,
        yes: 0.1,
      },
      { question: "Take a photo of the leak", questionFr: "Prenez une photo de la fuite", questionNl: "Neem een foto van het lek", contentType: 3 },
    ],
    weight: 8,
  },
  {
    key: "lighting",
    en: "Lighting failure",
    fr: "Panne d'éclairage",
    nl: "Defecte verlichting",
    priority: Priority.MEDIUM,
    reporterMayChangePriority: true,
    assignees: [],
    roomTypes: ["office", "meeting", "lab", "sanitary"],
    equipment: [],
    checklist: [
      { question: "How many lamps are out?", questionFr: "Combien de lampes sont éteintes ?", questionNl: "Hoeveel lampen zijn uit?", contentType: 2, range: [1, 3] },
      { question: "Is the emergency lighting affected?", questionFr: "L'éclairage de secours est-il touché ?", questionNl: "Is de noodverlichting getroffen?", contentType: 0, yes: 0.1 },
    ],
    weight: 20,
  },
  {
    key: "lab",
    en: "Lab safety issue",
    fr: "Problème de sécurité au labo",
    nl: "Veiligheidsprobleem in het labo",
    priority: Priority.CRITICAL,
    reporterMayChangePriority: false,
    assignees: ["technician", "manager"],
    roomTypes: ["lab"],
    equipment: ["FMH"],
    checklist: [
      { question: "Is anyone injured?", questionFr: "Quelqu'un est-il blessé ?", questionNl: "Is er iemand gewond?", message: "Call 112 first if anyone is injured.", contentType: 0, yes: 0 },
      {
        question: "Has the area been evacuated?", questionFr: "La zone a-t-elle été évacuée ?", questionNl: "Is de zone geëvacueerd?",
        tutorialLink: "https://help.caretaker.example/safety/evacuation",
        contentType: 0,
        yes: 0.2,
      },
    ],
    weight: 12,
  },
  {
    key: "network",
    en: "Network or Wi-Fi problem",
    fr: "Problème de réseau ou de Wi-Fi",
    nl: "Netwerk- of wifiprobleem",
    priority: Priority.MEDIUM,
    reporterMayChangePriority: true,
    assignees: ["technician"],
    roomTypes: ["office", "meeting", "lab"],
    equipment: [],
    checklist: [
      {
        question: "Which network are you connected to?", questionFr: "À quel réseau êtes-vous connecté ?", questionNl: "Met welk netwerk bent u verbonden?",
        tutorialLink: "https://help.caretaker.example/wifi",
        contentType: 1,
        texts: ["eduroam", "Campus-Staff", "Campus-Guest"],
      },
      { question: "Do other devices in the room have the same problem?", questionFr: "D'autres appareils du local ont-ils le même problème ?", questionNl: "Hebben andere toestellen in het lokaal hetzelfde probleem?", contentType: 0, yes: 0.6 },
    ],
    weight: 10,
  },
  {
    key: "printer",
    en: "Printer problem",
    fr: "Problème d'imprimante",
    nl: "Printerprobleem",
    priority: Priority.LOW,
    reporterMayChangePriority: true,
    assignees: [],
    roomTypes: ["office"],
    equipment: [],
    checklist: [
      {
        question: "What is the printer's name or number on its label?", questionFr: "Quel est le nom ou le numéro de l'imprimante sur son étiquette ?", questionNl: "Wat is de naam of het nummer van de printer op het etiket?",
        contentType: 1,
        texts: ["PRN-01", "PRN-02", "PRN-07", "PRN-12"],
      },
      {
        question: "Does the display show a paper jam?", questionFr: "L'écran indique-t-il un bourrage papier ?", questionNl: "Toont het scherm een papierstoring?",
        tutorialLink: "https://help.caretaker.example/printers/paper-jam",
        contentType: 0,
        yes: 0.3,
      },
    ],
    weight: 6,
  },
  {
    key: "furniture",
    en: "Broken chair or desk",
    fr: "Chaise ou bureau cassé",
    nl: "Kapotte stoel of bureau",
    priority: Priority.LOW,
    reporterMayChangePriority: true,
    assignees: ["manager"],
    roomTypes: ["office", "meeting", "lab"],
    equipment: [],
    checklist: [
      { question: "Take a photo of the damage", questionFr: "Prenez une photo des dégâts", questionNl: "Neem een foto van de schade", contentType: 3 },
      { question: "How many pieces of furniture are broken?", questionFr: "Combien de meubles sont cassés ?", questionNl: "Hoeveel meubels zijn stuk?", contentType: 2, range: [1, 2] },
      { question: "Is it dangerous to use?", questionFr: "Est-il dangereux de l'utiliser ?", questionNl: "Is het gevaarlijk om te gebruiken?", message: "If it is, put it aside and do not sit on it.", contentType: 0, yes: 0.3 },
    ],
    weight: 8,
  },
  {
    key: "fire",
    en: "Fire safety",
    fr: "Sécurité incendie",
    nl: "Brandveiligheid",
    priority: Priority.CRITICAL,
    reporterMayChangePriority: false,
    assignees: ["manager"],
    roomTypes: [],
    equipment: [],
    everywhere: true,
    checklist: [
      {
        question: "Is there smoke or fire right now?", questionFr: "Y a-t-il de la fumée ou du feu en ce moment ?", questionNl: "Is er op dit moment rook of vuur?",
        message: "If there is, leave the building, raise the alarm and call 112.",
        contentType: 0,
        yes: 0,
      },
      {
        question: "What is wrong (extinguisher, exit, alarm, fire door)?", questionFr: "Qu'est-ce qui ne va pas (extincteur, sortie, alarme, porte coupe-feu) ?", questionNl: "Wat is er mis (blusser, uitgang, alarm, branddeur)?",
        contentType: 1,
        texts: [["Fire door", "Porte coupe-feu", "Branddeur"]],
      },
      { question: "Take a photo of the problem", questionFr: "Prenez une photo du problème", questionNl: "Neem een foto van het probleem", contentType: 3 },
    ],
    weight: 3,
  },
];

const INCIDENT_TAGS = ["urgent", "recurring", "contractor", "weekend", "follow-up"];
/** The occupiers who report, and the language they write in: mostly English, some French and Dutch. */
const REPORTERS: Record<string, Lang> = {
  "sophie.martin@example.com": "en",
  "lucas.peeters@example.com": "nl",
  "emma.dubois@example.com": "fr",
  "noah.janssens@example.com": "en",
  "louise.lambert@example.com": "fr",
  "arthur.maes@example.com": "en",
  "olivia.claes@example.com": "en",
  "jules.wouters@example.com": "nl",
  "mila.dupont@example.com": "en",
  "victor.goossens@example.com": "en",
};
const REPORTER_EMAILS = Object.keys(REPORTERS);

/** How the demo photos of each incident type look (generated PNGs: colours and a pattern). */
const PHOTO_STYLE: Record<IncidentTypeKey, { from: Rgb; to: Rgb; pattern: PngPattern }> = {
  equipment: { from: [60, 64, 72], to: [200, 205, 215], pattern: "gradient" },
  climate: { from: [240, 140, 60], to: [255, 230, 200], pattern: "stripes" },
  cleaning: { from: [90, 140, 90], to: [220, 235, 210], pattern: "checks" },
  leak: { from: [30, 80, 160], to: [170, 210, 240], pattern: "rings" },
  lighting: { from: [250, 220, 90], to: [60, 60, 40], pattern: "rings" },
  lab: { from: [120, 60, 160], to: [225, 210, 240], pattern: "checks" },
  network: { from: [40, 120, 140], to: [200, 235, 240], pattern: "stripes" },
  printer: { from: [80, 80, 80], to: [245, 245, 245], pattern: "stripes" },
  furniture: { from: [120, 80, 40], to: [225, 195, 150], pattern: "stripes" },
  fire: { from: [190, 30, 30], to: [250, 200, 180], pattern: "checks" },
};

/** The problem reported: one fitting the room type and the equipment item (if any), chosen by `roll` in [0, 1). */
function pickProblem(key: IncidentTypeKey, roomType: RoomTypeKey, itemKey: EquipmentKey | undefined, roll: number): Problem {
  const all = PROBLEMS[key];
  const inRoom = all.filter((p) => !p.rooms || p.rooms.includes(roomType));
  const forItem = inRoom.filter((p) => (itemKey ? p.item === itemKey : !p.item));
  const list = forItem.length > 0 ? forItem : inRoom.length > 0 ? inRoom : all;
  return list[Math.floor(roll * list.length)];
}

/** A checklist question as the reporter read it, in their language. */
function questionOf(item: ChecklistSpec, lang: Lang): string {
  return lang === "fr" ? item.questionFr : lang === "nl" ? item.questionNl : item.question;
}

/** A reporter's answer to a checklist item (not a photo): the problem's own, else a usual one. */
function checklistAnswer(item: ChecklistSpec, own: Texts | string | undefined, lang: Lang, rng: Rng): string {
  if (own !== undefined) return inLang(own, lang);
  switch (item.contentType) {
    case 0:
      return rng.chance(item.yes ?? 0.5) ? "yes" : "no";
    case 2:
      return String(rng.int(...(item.range ?? [1, 3])));
    default:
      return inLang(rng.pick(item.texts ?? [""]), lang);
  }
}

async function seedDemoCampus(services: SeedServices, rng: Rng, now: Date): Promise<void> {
  const db = services.db;
  services.step("the organisation and its accounts");
  const entity = await createEntity(db, {
    name: DEMO_ENTITY_NAME,
    vatNumber: "BE0123456749",
    streetName: "Boulevard du Triomphe",
    streetNumber: "1",
    postalCode: "1050",
    city: "Brussels",
    country: "BE",
    billingSameAsAddress: true,
    greetingEn: "Welcome to Demo Campus! Tell us what needs fixing and we will take care of it.",
    greetingFr: "Bienvenue sur le Demo Campus ! Dites-nous ce qui doit être réparé, nous nous en occupons.",
    greetingNl: "Welkom op Demo Campus! Laat ons weten wat er hersteld moet worden, wij zorgen ervoor.",
    templateColor: "#1e3a8a",
    templateTextColor: "#ffffff",
  });
  const entityId = entity.id;

  const admin = await createUser(db, {
    entityId,
    email: DEMO_ACCOUNTS.admin,
    name: "Ava",
    surname: "Peeters",
    role: Role.ADMINISTRATOR,
    status: UserStatus.ACTIVE,
    language: UserLanguage.EN,
    lastLoginAt: new Date(now.getTime() - 2 * DAY),
  });
  const manager = await createUser(db, {
    entityId,
    email: DEMO_ACCOUNTS.manager,
    name: "Marc",
    surname: "Dubois",
    role: Role.FACILITY_MANAGER,
    status: UserStatus.ACTIVE,
    language: UserLanguage.EN,
    receiveNotification: true,
    lastLoginAt: new Date(now.getTime() - DAY),
  });
  const technician = await createUser(db, {
    entityId,
    email: DEMO_ACCOUNTS.technician,
    name: "Tom",
    surname: "Janssens",
    role: Role.TECHNICIAN,
    status: UserStatus.ACTIVE,
    language: UserLanguage.EN,
    receiveNotification: true,
    notificationSettings: { priorities: [Priority.HIGH, Priority.CRITICAL], buildingIds: [] },
    lastLoginAt: new Date(now.getTime() - 3 * HOUR),
  });
  await createUser(db, {
    entityId,
    email: DEMO_ACCOUNTS.disabled,
    name: "Dirk",
    surname: "Peeters",
    role: Role.TECHNICIAN,
    status: UserStatus.DISABLED,
    language: UserLanguage.NL,
  });
  const people = { manager, technician, admin };

  services.step("room types and equipment");
  // Room types, categories, generic equipment: created by the verbs, as the administrator would.
  const asAdmin = actingAs(services, admin);
  const roomTypeIds = {} as Record<RoomTypeKey, number>;
  for (const spec of ROOM_TYPES) {
    // The factory, with the demo rating messages in the three languages.
    const languages = [UserLanguage.EN, UserLanguage.FR, UserLanguage.NL] as const;
    const row = await createRoomTypeRow(db, {
      entityId,
      name: spec.name,
      tags: spec.tags,
      ratingMessages: spec.rating ? languages.map((language, i) => ({ language, message: spec.rating![i] })) : [],
    });
    roomTypeIds[spec.key] = row.id;
  }
  const categoryIds: number[] = [];
  for (const spec of CATEGORIES) {
    categoryIds.push((await createCategory(asAdmin, { categoryName: spec.name, tags: spec.tags })).id);
  }
  const equipmentTypeIds = {} as Record<EquipmentKey, number>;
  for (const spec of EQUIPMENT_TYPES) {
    const row = await createEquipmentType(asAdmin, {
      categoryId: categoryIds[spec.category],
      equipmentName: spec.name,
      notes: spec.notes,
      tags: spec.tags,
    });
    equipmentTypeIds[spec.key] = row.id;
  }

  services.step("facilities, buildings and rooms");
  // Facilities, buildings, rooms with their equipment items (and QR codes), through the verbs.
  interface PlacedRoom {
    room: { id: number; name: string; floor: string };
    type: RoomTypeKey;
    facility: number;
    buildingCode: string;
    buildingId: number;
    items: { id: number; key: EquipmentKey; internalReference: string; roomId: number }[];
  }
  const placed: PlacedRoom[] = [];
  const facilityIds: number[] = [];
  const buildingIds: Record<string, number> = {};
  const itemCounters: Record<EquipmentKey, number> = { PRJ: 0, SCR: 0, ACU: 0, RAD: 0, FMH: 0, COF: 0 };
  for (const [f, fSpec] of FACILITIES.entries()) {
    const facility = await createFacility(asAdmin, { name: fSpec.name, description: fSpec.description });
    facilityIds.push(facility.id);
    for (const bSpec of fSpec.buildings) {
      const building = await createBuilding(asAdmin, {
        facilityId: facility.id,
        name: bSpec.name,
        description: `${bSpec.name} of ${fSpec.name}.`,
        streetName: fSpec.street,
        streetNumber: bSpec.number,
        postalCode: fSpec.postalCode,
        city: fSpec.city,
        country: "BE",
      });
      buildingIds[bSpec.code] = building.id;
      const pattern = bSpec.lab ? LAB_ROOM_PATTERN : ROOM_PATTERN;
      let firstOffice = true;
      for (let r = 0; r < bSpec.rooms; r++) {
        const type = pattern[r];
        const floor = Math.floor(r / 2);
        const number = `${bSpec.code}.${floor}.${String(r + 1).padStart(2, "0")}`;
        const links: { type: RoomLinkType; url: string }[] = [];
        if (type === "meeting") {
          links.push({ type: RoomLinkType.BOOKING, url: `https://booking.example.com/rooms/${number}` });
          links.push({ type: RoomLinkType.WIFI, url: "https://help.caretaker.example/wifi" });
        }
        if (type === "sanitary") {
          links.push({ type: RoomLinkType.CLEANING, url: "https://cleaning.example.com/schedule" });
        }
        const keys: EquipmentKey[] = ["RAD"];
        if (type === "meeting") keys.push("PRJ", "SCR");
        if (type === "office") keys.push("ACU");
        if (type === "office" && firstOffice) keys.push("COF");
        if (type === "lab") keys.push("FMH");
        if (type === "office") firstOffice = false;
        const references = keys.map((key) => {
          itemCounters[key] += 1;
          return `${key}-${String(itemCounters[key]).padStart(3, "0")}`;
        });
        const room = await createRoom(asAdmin, {
          buildingId: building.id,
          roomTypeId: roomTypeIds[type],
          name: `${ROOM_TYPE_LABEL[type]} ${number}`,
          description: `${ROOM_TYPE_LABEL[type]} on floor ${floor} of ${bSpec.name}.`,
          floor: String(floor),
          links,
          equipments: keys.map((key, i) => ({ equipmentTypeId: equipmentTypeIds[key], internalReference: references[i] })),
        });
        const items = keys.map((key, i) => {
          const item = room.equipments.find((e) => e.internalReference === references[i])!;
          return { id: item.id, key, internalReference: references[i], roomId: room.id };
        });
        placed.push({ room, type, facility: f, buildingCode: bSpec.code, buildingId: building.id, items });
      }
    }
  }

  // Access: the manager sees everything, the technician one facility and one building of another.
  for (const facilityId of facilityIds) await linkUserTo(db, { entityId, userId: manager.id, facilityId });
  await linkUserTo(db, { entityId, userId: technician.id, facilityId: facilityIds[0] });
  await linkUserTo(db, { entityId, userId: technician.id, buildingId: buildingIds.LBA });
  const inTechnicianScope = (p: PlacedRoom) => p.facility === 0 || p.buildingCode === "LBA";

  services.step("equipment records");
  // Equipment records (issue 63): the air conditioning units and fume hoods with their serial numbers
  // and warranties, the first unit's ending in 20 days (a reminder on the way); the first meeting room's
  // screen is part of its projector's installation.
  const recordDay = dayIn(now, DEFAULT_TIME_ZONE);
  const allItems = placed.flatMap((p) => p.items);
  for (const [i, item] of allItems.filter((x) => x.key === "ACU").entries()) {
    await updateEquipmentItem(asAdmin, item.id, {
      serialNumber: `DKN-35R-${String(48_210 + i * 37)}`,
      manufacturer: "Daikin",
      model: "FTXM35R",
      installedOn: "2023-04-18",
      warrantyEndsOn: i === 0 ? addDays(recordDay, 20) : "2028-04-17",
      supplier: "Clim Services Namur",
      notes: i === 0 ? "Filters cleaned every spring." : null,
    });
  }
  for (const [i, item] of allItems.filter((x) => x.key === "FMH").entries()) {
    await updateEquipmentItem(asAdmin, item.id, {
      serialNumber: `WSF-${String(7_301 + i)}`,
      manufacturer: "Waldner",
      model: "Secuflow",
      installedOn: "2022-09-05",
      warrantyEndsOn: "2027-09-04",
      supplier: "Labo Equip Belgium",
    });
  }
  const meeting = placed.find((p) => p.type === "meeting");
  const projector = meeting?.items.find((x) => x.key === "PRJ");
  const screen = meeting?.items.find((x) => x.key === "SCR");
  if (projector && screen) {
    await updateEquipmentItem(asAdmin, projector.id, { serialNumber: "EPS-EB-L520U-1187", manufacturer: "Epson", model: "EB-L520U", installedOn: "2024-01-22", warrantyEndsOn: "2029-01-21" });
    await updateEquipmentItem(asAdmin, screen.id, { manufacturer: "Projecta", model: "Tensioned Elpro", parentItemId: projector.id });
  }

  services.step("incident types");
  // Incident types
  const incidentTypeRows = new Map<IncidentTypeKey, { id: number; assigneeIds: number[] }>();
  for (const spec of INCIDENT_TYPES) {
    const assigneeIds = spec.assignees.map((who) => people[who].id);
    const row = await createIncidentType(db, {
      entityId,
      nameEn: spec.en,
      nameFr: spec.fr,
      nameNl: spec.nl,
      defaultPriority: spec.priority,
      reporterMayChangePriority: spec.reporterMayChangePriority,
      appliesEverywhere: spec.everywhere ?? false,
      status: IncidentTypeStatus.ACTIVE,
      defaultAssigneeIds: assigneeIds,
      roomTypeIds: spec.roomTypes.map((key) => roomTypeIds[key]),
      equipmentTypeIds: spec.equipment.map((key) => equipmentTypeIds[key]),
      checklist: spec.checklist,
    });
    incidentTypeRows.set(spec.key, { id: row.id, assigneeIds });
  }

  services.step("service levels");
  // Service levels (decision 064), set before the incidents are reported: office hours, Belgium's public
  // holidays (the past year's too, which the older incidents' clocks cross), a target per priority counted
  // in working hours, and a warning an hour before a breach.
  const office = { open: "on" as const, opens: "08:00", closes: "17:00" };
  await setWorkingWeek(asAdmin, { monday: office, tuesday: office, wednesday: office, thursday: office, friday: office, saturday: {}, sunday: {} });
  const thisYear = Number(dayIn(now, DEFAULT_TIME_ZONE).slice(0, 4));
  for (const year of [thisYear - 1, thisYear, thisYear + 1]) await addPublicHolidays(asAdmin, { year, language: "en" });
  await setTargets(
    asAdmin,
    null,
    Object.fromEntries(TARGET_PRIORITIES.map((key) => [key, { responseHours: String(DEMO_TARGET_HOURS[key][0]), resolutionHours: String(DEMO_TARGET_HOURS[key][1]) }])) as TargetsInput,
  );
  await setWarningLead(asAdmin, { warnBeforeMinutes: 60 });
  const calendar = await workingCalendar(asAdmin);

  services.step("incidents");
  // Incidents: 60 over the last 6 months, oldest first (short ids follow creation order). `rng` decides
  // their structure (type, place, status, people, priority, tags, reporters) as it did before the texts,
  // comments and photos were added; a second stream, `flavor`, decides those, so adding to them does
  // not move which incident is in which status.
  const flavor = createRng(20240602);
  const INCIDENTS = 60;
  const span = 182 * DAY;
  const slot = span / INCIDENTS;
  const forcedStatus: Record<number, IncidentStatus> = {
    4: IncidentStatus.ARCHIVED,
    15: IncidentStatus.ARCHIVED,
    20: IncidentStatus.DONE,
    30: IncidentStatus.REJECTED,
    57: IncidentStatus.IN_PROGRESS,
    59: IncidentStatus.PENDING,
  };
  /** This one (Rejected) is a second report of an earlier incident's problem, closed as its duplicate. */
  const DUPLICATE_INDEX = 30;
  /** The last one (Pending) was reported Critical a little before now: its clock is due in the next working hours. */
  const DUE_SOON_INDEX = 59;
  /**
   * This one (a climate problem, Done) is on its room's radiator, which two later incidents report again:
   * the least reliable item of the reliability figures, with three failures.
   */
  const FAILING_RADIATOR_INDEX = 6;
  interface Made {
    id: number;
    shortId: number;
    title: string;
    description: string | null;
    priority: IncidentPriority;
    status: IncidentStatus;
    createdAt: Date;
    finishedAt: Date;
    assigneeId: number | null;
    commentedAt?: Date;
    spec: (typeof INCIDENT_TYPES)[number];
    place: PlacedRoom;
    item: PlacedRoom["items"][number] | undefined;
    problem: Problem;
    occurrences: number;
    lastOccurrenceAt: Date;
    reporterEmails: string[];
    lastChange: number;
  }
  const created: Made[] = [];
  const person = (u: User) => ({ id: u.id, name: fullName(u) });
  services.step("photos and comments");
  // Photos: taken by occupiers when reporting (no acting user), or by the technician in a comment.
  const asOccupier = { ...asAdmin, actor: null };
  const storePhoto = async (ctx: typeof asAdmin, key: IncidentTypeKey, at: Date, salt: number): Promise<string> => {
    const bytes = patternPng(320, 240, { ...PHOTO_STYLE[key], cell: 14 + (salt % 5) * 6 });
    const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 13);
    const file = await storeFile(ctx, services.files, { bytes, originalName: `IMG_${stamp}.png`, kind: "image" });
    return file.id;
  };
  let photoCommentMade = false;

  for (let i = 0; i < INCIDENTS; i++) {
    let spec = INCIDENT_TYPES[rng.weighted(INCIDENT_TYPES.map((t, index) => [index, t.weight] as const))];
    let type = incidentTypeRows.get(spec.key)!;
    let createdAt = new Date(now.getTime() - span + i * slot + rng.next() * 0.8 * slot);
    const recent = now.getTime() - createdAt.getTime() < 30 * DAY;
    const status: IncidentStatus =
      forcedStatus[i] ??
      (recent
        ? rng.weighted<IncidentStatus>([
            [IncidentStatus.PENDING, 45],
            [IncidentStatus.IN_PROGRESS, 35],
            [IncidentStatus.DONE, 15],
            [IncidentStatus.REJECTED, 5],
          ])
        : rng.weighted<IncidentStatus>([
            [IncidentStatus.DONE, 64],
            [IncidentStatus.REJECTED, 12],
            [IncidentStatus.IN_PROGRESS, 12],
            [IncidentStatus.PENDING, 12],
          ]));

    // Where: a room of a linked room type (any room for a type that applies everywhere), and often one
    // of its items of a linked equipment type.
    const candidates = spec.everywhere ? placed : placed.filter((p) => spec.roomTypes.includes(p.type));
    const withItems = candidates.filter((p) => p.items.some((item) => spec.equipment.includes(item.key)));
    const useItem = withItems.length > 0 && (spec.key === "equipment" || rng.chance(0.5));
    let place = rng.pick(useItem ? withItems : candidates);
    let item = useItem ? rng.pick(place.items.filter((it) => spec.equipment.includes(it.key))) : undefined;
    if (i === FAILING_RADIATOR_INDEX) item = place.items.find((it) => it.key === "RAD") ?? item;

    // Timeline: handled within H (2 hours to 10 days), always before now.
    const handlingDraw = rng.int(2, 240) * HOUR;
    const timeline = (reported: Date) => {
      const t0 = reported.getTime();
      const handling = Math.min(handlingDraw, 0.8 * (now.getTime() - t0));
      return {
        t0,
        assignedAt: new Date(t0 + 0.05 * handling),
        startedAt: new Date(t0 + 0.25 * handling),
        finishedAt: new Date(t0 + handling),
        archivedAt: new Date(t0 + handling + 0.5 * Math.min(DAY, now.getTime() - (t0 + handling))),
      };
    };
    let { t0, assignedAt, startedAt, finishedAt, archivedAt } = timeline(createdAt);

    // Who: a default assignee of the type, else the technician in their scope, else the manager.
    const technicianMayHandle = inTechnicianScope(place);
    let assignee: User | null = null;
    let assignedBy: User | null = null;
    if (type.assigneeIds.includes(technician.id) && technicianMayHandle) assignee = technician;
    else if (type.assigneeIds.includes(manager.id)) assignee = manager;
    if (!assignee && status !== IncidentStatus.REJECTED && (status !== IncidentStatus.PENDING || rng.chance(0.4))) {
      assignee = technicianMayHandle && rng.chance(0.7) ? technician : manager;
      assignedBy = manager;
    }

    // Priority: the type's default; a few pending ones "Not selected", some changed by the manager.
    let priority: IncidentPriority = spec.priority;
    let changedFrom: IncidentPriority | undefined;
    if (status === IncidentStatus.PENDING && rng.chance(0.2)) priority = null;
    else if (status !== IncidentStatus.PENDING && rng.chance(0.2)) {
      changedFrom = priority;
      const others = [Priority.LOW, Priority.MEDIUM, Priority.HIGH, Priority.CRITICAL].filter((p) => p !== priority);
      priority = rng.pick(others);
    }

    const tagCount = rng.weighted([
      [0, 55],
      [1, 35],
      [2, 10],
    ] as const);
    const tags: string[] = [];
    while (tags.length < tagCount) {
      const tag = rng.pick(INCIDENT_TAGS);
      if (!tags.includes(tag)) tags.push(tag);
    }

    const occurrences = rng.chance(0.15) ? rng.int(2, 3) : 1;
    const reporterEmails: string[] = [];
    while (reporterEmails.length < occurrences) {
      const email = rng.pick(REPORTER_EMAILS);
      if (!reporterEmails.includes(email)) reporterEmails.push(email);
    }
    const lastOccurredAt = (t: number) => (occurrences > 1 ? new Date(t + 0.5 * Math.min(3 * DAY, now.getTime() - t)) : new Date(t));
    let lastOccurrenceAt = lastOccurredAt(t0);
    const problemRoll = rng.next();
    const ending = rng.pick(DESCRIPTION_ENDINGS);

    // The duplicate: the same problem in the same place as the latest earlier incident still open when
    // it was reported; nobody took it up before the manager closed it.
    let kept: Made | undefined;
    if (i === DUPLICATE_INDEX) {
      kept =
        [...created]
          .reverse()
          .find(
            (m) =>
              m.status === IncidentStatus.PENDING ||
              m.status === IncidentStatus.IN_PROGRESS ||
              (m.status === IncidentStatus.DONE && m.finishedAt > createdAt),
          ) ?? created[created.length - 1];
      spec = kept.spec;
      type = incidentTypeRows.get(spec.key)!;
      place = kept.place;
      item = kept.item;
      assignee = null;
      assignedBy = null;
      priority = spec.priority;
      changedFrom = undefined;
      tags.length = 0;
    }

    // What the reporter wrote, in their language.
    const lang = REPORTERS[reporterEmails[0]];
    // (`rng`'s draw, shifted by `flavor`'s: the same structure, more varied problems.)
    const problem = kept ? kept.problem : pickProblem(spec.key, place.type, item?.key, (problemRoll + flavor.next()) % 1);
    const roomNumber = place.room.name.split(" ").at(-1)!;
    const fill = (text: Texts) => inLang(text, lang).replaceAll("{room}", roomNumber);
    const title = fill(problem.title);
    const reportedDescription = [fill(problem.description), fill(ending)].filter(Boolean).join(" ");

    // What happened on top (the `flavor` stream): a vague first title the manager rewrote, a description
    // completed, a reassignment, a tag added then removed, a reopening, a photo.
    const handled = status !== IncidentStatus.PENDING;
    const firstTitle = handled && !kept && flavor.chance(0.12) ? fill(flavor.pick(VAGUE_TITLES)) : undefined;
    const addition = handled && !kept && flavor.chance(0.07) ? fill(flavor.pick(DESCRIPTION_ADDITIONS)) : undefined;
    const description = addition ? `${reportedDescription}\n\n${addition}` : reportedDescription;
    const reassigned = assignee === technician && assignedBy === manager && flavor.chance(0.3);
    const unassigned = !assignee && status === IncidentStatus.PENDING && flavor.chance(0.15);
    const reopened = status === IncidentStatus.DONE && flavor.chance(0.1);
    const droppedTag =
      handled && !kept && tags.length < 3 && flavor.chance(0.15)
        ? flavor.pick(INCIDENT_TAGS.filter((t) => !tags.includes(t)))
        : undefined;
    const asksPhoto = spec.checklist.some((c) => c.contentType === 3);
    const withPhoto = flavor.chance(asksPhoto ? 0.75 : 0.1);

    if (i === DUE_SOON_INDEX) {
      // Reported so that its running clock (the response, or the resolution once someone has it) has
      // 150 working minutes left now (half its target when shorter), and after the incident before it.
      priority = Priority.CRITICAL;
      const [responseHours, resolutionHours] = DEMO_TARGET_HOURS.critical;
      const targetMinutes = 60 * (assignee || unassigned ? resolutionHours : responseHours);
      const counted = targetMinutes - Math.min(150, targetMinutes / 2);
      const earliest = created[created.length - 1].createdAt.getTime() + 60_000;
      createdAt = new Date(workingTimeBefore(now, counted, calendar, earliest));
      ({ t0, assignedAt, startedAt, finishedAt, archivedAt } = timeline(createdAt));
      lastOccurrenceAt = lastOccurredAt(t0);
    }

    const done = status === IncidentStatus.DONE || status === IncidentStatus.ARCHIVED;
    const incident = await createIncident(db, {
      entityId,
      title,
      description,
      roomId: place.room.id,
      equipmentItemId: item?.id ?? null,
      location: item ? `${place.room.name} (${item.internalReference})` : place.room.name,
      floor: place.room.floor,
      occurrences,
      lastOccurrenceAt,
      priority,
      status,
      assigneeId: assignee?.id ?? null,
      incidentTypeId: type.id,
      tags,
      duplicateOfId: kept?.id ?? null,
      createdAt,
      doneAt: done ? finishedAt : null,
      reporterEmails,
      reportedAs: {
        title: firstTitle ?? title,
        status: IncidentStatus.PENDING,
        priority: changedFrom !== undefined ? changedFrom : priority,
      },
    });

    // The photo and the checklist answers sent with the report.
    const photoId = withPhoto ? await storePhoto(asOccupier, spec.key, createdAt, i) : undefined;
    if (photoId) await createIncidentFile(db, { entityId, incidentId: incident.id, fileId: photoId, createdAt });
    await createChecklistAnswers(db, {
      entityId,
      incidentId: incident.id,
      createdAt,
      answers: spec.checklist.map((c, position) =>
        c.contentType === 3
          ? { question: questionOf(c, lang), contentType: 3, answer: null, fileId: photoId ?? null }
          : {
              question: questionOf(c, lang),
              contentType: c.contentType,
              answer: checklistAnswer(c, problem.answers?.[position], lang, flavor),
            },
      ),
    });

    // Events after CREATED, in time order.
    const events: Parameters<typeof createIncidentEvent>[1][] = [];
    const event = (type: IncidentEventType, at: Date, actor: User | null, oldValue: unknown, newValue: unknown) =>
      events.push({
        entityId,
        incidentId: incident.id,
        type,
        actorId: actor?.id ?? null,
        oldValue,
        newValue,
        createdAt: at,
      });
    const between = (from: Date, to: Date, share: number) => new Date(from.getTime() + share * (to.getTime() - from.getTime()));
    if (assignee && reassigned) {
      event(IncidentEventType.ASSIGNED, assignedAt, manager, null, person(manager));
      event(IncidentEventType.ASSIGNED, between(assignedAt, startedAt, 0.5), manager, person(manager), person(assignee));
    } else if (assignee) {
      event(
        IncidentEventType.ASSIGNED,
        assignedBy ? assignedAt : createdAt,
        assignedBy,
        null,
        person(assignee),
      );
    } else if (unassigned) {
      event(IncidentEventType.ASSIGNED, assignedAt, manager, null, person(manager));
      event(IncidentEventType.ASSIGNED, startedAt, manager, person(manager), null);
    }
    if (firstTitle) event(IncidentEventType.TITLE_UPDATE, assignedAt, manager, firstTitle, title);
    if (addition) event(IncidentEventType.DESCRIPTION_UPDATE, assignedAt, manager, reportedDescription, description);
    if (changedFrom !== undefined) event(IncidentEventType.PRIORITY_UPDATE, assignedAt, manager, changedFrom, priority);
    for (const tag of tags) event(IncidentEventType.ADD_TAG, assignedAt, manager, null, tag);
    if (droppedTag) {
      event(IncidentEventType.ADD_TAG, assignedAt, manager, null, droppedTag);
      event(IncidentEventType.DELETE_TAG, done ? finishedAt : startedAt, manager, droppedTag, null);
    }
    const worker = assignee ?? manager;
    if (status === IncidentStatus.REJECTED) {
      if (kept) event(IncidentEventType.DUPLICATE, startedAt, manager, null, { id: kept.id, shortId: kept.shortId });
      event(IncidentEventType.STATUS_UPDATE, startedAt, manager, IncidentStatus.PENDING, IncidentStatus.REJECTED);
    } else if (status !== IncidentStatus.PENDING) {
      event(IncidentEventType.STATUS_UPDATE, startedAt, worker, IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS);
      if (done) {
        if (reopened) {
          // Closed too early: the problem came back and the manager reopened it.
          event(IncidentEventType.STATUS_UPDATE, between(startedAt, finishedAt, 0.5), worker, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE);
          event(IncidentEventType.STATUS_UPDATE, between(startedAt, finishedAt, 0.7), manager, IncidentStatus.DONE, IncidentStatus.IN_PROGRESS);
        }
        event(IncidentEventType.STATUS_UPDATE, finishedAt, worker, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE);
      }
      if (status === IncidentStatus.ARCHIVED) {
        event(IncidentEventType.STATUS_UPDATE, archivedAt, manager, IncidentStatus.DONE, IncidentStatus.ARCHIVED);
      }
    }
    events.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
    await createIncidentEvents(db, events);

    // Its service-level clocks, as the verbs would have kept them through this history.
    const steps: ClockStep[] = events.flatMap((e): ClockStep[] => {
      const at = e.createdAt!;
      if (e.type === IncidentEventType.ASSIGNED) return [{ at, assigneeId: (e.newValue as { id: number } | null)?.id ?? null }];
      if (e.type === IncidentEventType.STATUS_UPDATE) return [{ at, status: e.newValue as IncidentStatus }];
      if (e.type === IncidentEventType.PRIORITY_UPDATE) return [{ at, priority: e.newValue as IncidentPriority }];
      return [];
    });
    await replayIncidentClocks(asAdmin, incident, changedFrom !== undefined ? changedFrom : priority, steps);

    // Comments of the technician and the manager: a thread in the reporter's language (or English), work
    // notes, then the closing note. `rng`'s draws come first (as before), `flavor` adds more.
    const notes: Texts[] = [];
    if (status !== IncidentStatus.PENDING && rng.chance(0.15)) {
      const count = rng.int(1, 2);
      for (let c = 0; c < count; c++) notes.push(PROGRESS_COMMENTS[Math.floor(rng.next() * PROGRESS_COMMENTS.length)]);
    }
    if (handled && !kept && flavor.chance(0.45)) {
      notes.unshift(flavor.chance(0.5) ? TYPE_COMMENTS[spec.key] : flavor.pick(PROGRESS_COMMENTS));
      if (flavor.chance(0.3)) notes.push(flavor.pick(PROGRESS_COMMENTS));
    }
    const withPhotoComment = !photoCommentMade && status === IncidentStatus.DONE && i >= 40;
    const thread: { author: User; text: string; photo?: boolean }[] = [];
    const commentLang: Lang = lang !== "en" && flavor.chance(0.7) ? lang : "en";
    const say = (text: Texts) => inLang(text, commentLang);
    if (kept) {
      thread.push({ author: manager, text: say(DUPLICATE_COMMENT).replace("{shortId}", String(kept.shortId)) });
    } else if (status === IncidentStatus.REJECTED) {
      // Nobody worked on it: only the manager's reason.
      if (notes.length > 0) thread.push({ author: manager, text: say(flavor.pick(REJECTED_COMMENTS)) });
    } else if (notes.length > 0 || withPhotoComment) {
      for (const note of new Set(notes)) thread.push({ author: worker, text: say(note) });
      if (withPhotoComment) thread.push({ author: worker, text: say(PHOTO_COMMENT), photo: true });
      else if (done) thread.push({ author: worker, text: say(flavor.pick(DONE_COMMENTS)) });
    }
    // Rejected: written up to the rejection; otherwise while it was worked on.
    const [from, to] = status === IncidentStatus.REJECTED ? [assignedAt, startedAt] : [startedAt, finishedAt];
    let commentedAt: Date | undefined;
    for (const [c, entry] of thread.entries()) {
      commentedAt = kept ? startedAt : between(from, to, (c + 1) / (thread.length + 1));
      const edited = flavor.chance(0.12)
        ? new Date(Math.min(commentedAt.getTime() + flavor.int(5, 90) * 60_000, now.getTime()))
        : null;
      const comment = await createIncidentComment(db, {
        entityId,
        incidentId: incident.id,
        authorId: entry.author.id,
        body: entry.text,
        createdAt: commentedAt,
        editedAt: edited,
        editedById: edited ? entry.author.id : null,
      });
      if (entry.photo) {
        const fileId = await storePhoto(actingAs(services, entry.author), spec.key, commentedAt, i + 1);
        await createIncidentCommentFile(db, { entityId, commentId: comment.id, fileId, createdAt: commentedAt });
        photoCommentMade = true;
      }
    }

    const lastChange = Math.max(
      createdAt.getTime(),
      lastOccurrenceAt.getTime(),
      ...events.map((e) => e.createdAt!.getTime()),
      commentedAt?.getTime() ?? 0,
    );
    await db.update(incidents).set({ updatedAt: new Date(lastChange) }).where(eq(incidents.id, incident.id));

    // The kept incident takes the duplicate's occurrences and reporters (as markIncidentDuplicate does).
    if (kept) {
      await createIncidentEvent(db, {
        entityId,
        incidentId: kept.id,
        type: IncidentEventType.DUPLICATE,
        actorId: manager.id,
        oldValue: null,
        newValue: { id: incident.id, shortId: incident.shortId, occurrences },
        createdAt: startedAt,
      });
      const newEmails = reporterEmails.filter((email) => !kept.reporterEmails.includes(email));
      if (newEmails.length > 0) {
        await db.insert(incidentReporters).values(newEmails.map((email) => ({ entityId, incidentId: kept.id, email, createdAt })));
      }
      kept.reporterEmails.push(...newEmails);
      kept.occurrences += occurrences;
      if (lastOccurrenceAt > kept.lastOccurrenceAt) kept.lastOccurrenceAt = lastOccurrenceAt;
      kept.lastChange = Math.max(kept.lastChange, startedAt.getTime());
      await db
        .update(incidents)
        .set({ occurrences: kept.occurrences, lastOccurrenceAt: kept.lastOccurrenceAt, updatedAt: new Date(kept.lastChange) })
        .where(eq(incidents.id, kept.id));
    }

    created.push({
      id: incident.id,
      shortId: incident.shortId,
      title,
      description,
      priority,
      status,
      createdAt,
      finishedAt,
      assigneeId: assignee?.id ?? null,
      commentedAt,
      spec,
      place,
      item,
      problem,
      occurrences,
      lastOccurrenceAt,
      reporterEmails,
      lastChange,
    });
  }

  // The failing radiator was out of service each time it failed (decision 066): its downtime runs from
  // each report to Done (the open one's to now), the equipment history's "Downtime".
  const radiator = created[FAILING_RADIATOR_INDEX]?.item;
  if (radiator) {
    const onRadiator = created.filter((c) => c.item?.id === radiator.id && c.status !== IncidentStatus.REJECTED).map((c) => c.id);
    if (onRadiator.length) await db.update(incidents).set({ equipmentDown: true }).where(and(eq(incidents.entityId, entity.id), inArray(incidents.id, onRadiator)));
  }

  services.step("time and material");
  // Time and material on the six latest Done incidents (decision 065): whoever handled them records
  // their hours (the manager sometimes for the technician), and the parts bought, with notes.
  const WORK: { minutes: number[]; notes: string[]; parts: [string, string, string][] }[] = [
    { minutes: [45, 90], notes: ["Diagnosed the fault and ordered the part.", "Fitted the new part and tested it."], parts: [["Replacement part", "1", "38.50"]] },
    { minutes: [30], notes: ["Quick fix on site."], parts: [] },
    { minutes: [120], notes: ["Took it apart, cleaned and reassembled."], parts: [["Cleaning kit", "1", "12.90"], ["Screws (pack of 20)", "2", "3.25"]] },
    { minutes: [60, 45], notes: ["First visit: checked with the occupant.", "Second visit: done and checked."], parts: [] },
    { minutes: [75], notes: ["Replaced the worn parts."], parts: [["Seal", "4", "1.80"]] },
    { minutes: [20, 40], notes: ["Looked at it with the occupant.", "Repaired and tidied up."], parts: [["Cable ties", "10", "0.15"]] },
  ];
  // Hourly rates (issue 62): a default for the entity, the technician's and the manager's own; each
  // entry carries the rate of its worker, as recordTime captures it.
  const RATES = { default: "45.00", technician: "38.00", manager: "52.00" };
  await db.update(entities).set({ defaultHourlyRate: RATES.default }).where(eq(entities.id, entityId));
  await db.update(users).set({ hourlyRate: RATES.technician }).where(eq(users.id, technician.id));
  await db.update(users).set({ hourlyRate: RATES.manager }).where(eq(users.id, manager.id));
  const worked = created.filter((c) => c.status === IncidentStatus.DONE).slice(-WORK.length);
  for (const [index, c] of worked.entries()) {
    const work = WORK[index];
    const worker = c.assigneeId === technician.id ? technician : manager;
    // The manager records the technician's time on every other incident.
    const writer = worker === technician && index % 2 === 1 ? manager : worker;
    const span = c.finishedAt.getTime() - c.createdAt.getTime();
    for (const [n, minutes] of work.minutes.entries()) {
      const at = new Date(c.createdAt.getTime() + ((n + 1) / (work.minutes.length + 1)) * span);
      await db.insert(timeEntries).values({
        entityId,
        incidentId: c.id,
        userId: worker.id,
        workedOn: dayIn(at, DEFAULT_TIME_ZONE),
        minutes,
        hourlyRate: worker === technician ? RATES.technician : RATES.manager,
        note: work.notes[n],
        createdById: writer.id,
        createdAt: at,
        updatedAt: at,
      });
    }
    for (const [description, quantity, unitCost] of work.parts) {
      await db.insert(materialLines).values({ entityId, incidentId: c.id, description, quantity, unitCost, createdById: worker.id, createdAt: c.finishedAt, updatedAt: c.finishedAt });
    }
  }

  services.step("notifications");
  // Notifications: the manager hears of the latest incidents and a comment; the technician of assignments.
  const message = (c: (typeof created)[number]) => ({
    incidentPriority: c.priority,
    incidentDescription: c.description,
    incidentTitle: c.title,
    incidentShortId: c.shortId,
  });
  const latest = created.slice(-5);
  for (const [index, c] of latest.entries()) {
    await createNotification(db, {
      entityId,
      userIds: [manager.id],
      type: NotificationType.INCIDENT_CREATED,
      subject: `New incident #${c.shortId}: ${c.title}`,
      message: message(c),
      incidentId: c.id,
      createdAt: c.createdAt,
      readAt: index < 2 ? new Date(c.createdAt.getTime() + HOUR) : null,
    });
  }
  const commented = created.filter((c) => c.commentedAt).at(-1);
  if (commented) {
    await createNotification(db, {
      entityId,
      userIds: [manager.id],
      type: NotificationType.INCIDENT_NEW_COMMENT,
      subject: `New comment on incident #${commented.shortId}: ${commented.title}`,
      message: message(commented),
      incidentId: commented.id,
      createdAt: commented.commentedAt,
    });
  }
  for (const c of created.filter((x) => x.assigneeId === technician.id).slice(-2)) {
    await createNotification(db, {
      entityId,
      userIds: [technician.id],
      type: NotificationType.INCIDENT_ASSIGNED,
      subject: `Incident #${c.shortId} was assigned to you: ${c.title}`,
      message: message(c),
      incidentId: c.id,
      createdAt: new Date(c.createdAt.getTime() + HOUR),
    });
  }

  services.step("maintenance");
  // Maintenance: a planned maintenance of each time measure, done by the technician. What fell due
  // before today is done (the daily round's last two days and the weekly check's last week are still
  // open: overdue), what comes is generated as the app generates it (to the rolling horizon).
  const hvacType = await createMaintenanceType(db, {
    entityId,
    name: "HVAC filter replacement",
    tags: ["hvac"],
    occurrenceInterval: 3,
    occurrenceUnit: TimeMeasure.MONTH,
    instructions: "Replace the filters of the air conditioning unit and note their state.",
    assigneeIds: [technician.id],
  });
  const fireType = await createMaintenanceType(db, {
    entityId,
    name: "Fire safety check",
    tags: ["safety"],
    occurrenceInterval: 1,
    occurrenceUnit: TimeMeasure.MONTH,
    instructions: "Check the extinguishers' pressure and seals, the emergency lighting and that exits are free.",
    assigneeIds: [technician.id, manager.id],
  });
  // Its inspection checklist (issue 63), in three languages: a failed check opens a fire safety incident.
  const fireIncidentType = incidentTypeRows.get("fire")!.id;
  const fireChecks = [
    await addMaintenanceCheck(asAdmin, fireType.id, { kind: 0, label: "Extinguisher seal intact", labelFr: "Scellé de l'extincteur intact", labelNl: "Zegel van de blusser intact", incidentTypeId: fireIncidentType, priority: 2 }),
    await addMaintenanceCheck(asAdmin, fireType.id, { kind: 1, label: "Extinguisher pressure (bar)", labelFr: "Pression de l'extincteur (bar)", labelNl: "Druk van de blusser (bar)", minValue: 12, maxValue: 15, incidentTypeId: fireIncidentType, priority: 3 }),
    await addMaintenanceCheck(asAdmin, fireType.id, { kind: 0, label: "Emergency lighting works", labelFr: "L'éclairage de secours fonctionne", labelNl: "Noodverlichting werkt", incidentTypeId: fireIncidentType, priority: 2 }),
    await addMaintenanceCheck(asAdmin, fireType.id, { kind: 2, label: "Remarks", labelFr: "Remarques", labelNl: "Opmerkingen", priority: 1 }),
  ].map((c) => c.id);
  const roundType = await createMaintenanceType(db, {
    entityId,
    name: "Building round",
    tags: ["round"],
    occurrenceInterval: 1,
    occurrenceUnit: TimeMeasure.DAY,
    instructions: "Walk through, open the shutters, check for leaks and anything broken.",
    assigneeIds: [technician.id],
  });
  const inspectionType = await createMaintenanceType(db, {
    entityId,
    name: "Statutory inspection",
    tags: ["inspection"],
    occurrenceInterval: 1,
    occurrenceUnit: TimeMeasure.YEAR,
    instructions: "Accompany the inspector and file the report.",
    assigneeIds: [manager.id],
  });

  const today = dayIn(now, DEFAULT_TIME_ZONE);
  const roomsOf = (code: string) => placed.filter((p) => p.buildingCode === code).map((p) => p.room.id);
  const acus = placed.filter((p) => p.facility === 0).flatMap((p) => p.items.filter((it) => it.key === "ACU")).slice(0, 3);
  type Where = { roomId: number; equipmentItemId?: number };
  const plans: {
    name: string;
    type: { id: number; instructions: string };
    unit: TimeMeasure;
    interval: number | null;
    start: string;
    end: string;
    time: string | null;
    assignees: number[];
    rooms?: number[];
    items?: typeof acus;
    building?: string;
    /** Past occurrences left open (overdue), the latest ones. */
    open?: number;
  }[] = [
    { name: "HVAC filters – Main Campus", type: hvacType, unit: TimeMeasure.MONTH, interval: 3, start: addDays(today, -190), end: addDays(today, 400), time: "08:30", assignees: [technician.id], items: acus },
    { name: "Fire safety check – Lab Building A", type: fireType, unit: TimeMeasure.MONTH, interval: 1, start: addDays(today, -75), end: addDays(today, 300), time: "09:00", assignees: [technician.id], building: "LBA" },
    { name: "Morning round – Administration", type: roundType, unit: TimeMeasure.DAY, interval: 1, start: addDays(today, -14), end: addDays(today, 60), time: "07:30", assignees: [technician.id], rooms: roomsOf("ADM").slice(0, 1), open: 2 },
    { name: "Restroom supplies – Library", type: roundType, unit: TimeMeasure.WEEK, interval: 1, start: addDays(today, -40), end: addDays(today, 120), time: "10:00", assignees: [technician.id], rooms: roomsOf("LIB").slice(0, 2), open: 1 },
    { name: "Lift inspection – Auditorium", type: inspectionType, unit: TimeMeasure.YEAR, interval: 1, start: addDays(today, -300), end: addDays(today, 1500), time: null, assignees: [manager.id, technician.id], rooms: roomsOf("AUD").slice(0, 1) },
    { name: "Roof check after the storm – Library", type: inspectionType, unit: TimeMeasure.UNSPECIFIED, interval: null, start: addDays(today, 5), end: addDays(today, 5), time: "14:00", assignees: [technician.id], rooms: roomsOf("LIB").slice(0, 1) },
  ];
  const planIds: number[] = [];
  /** The tasks made done, in the order made: the latest ones get time and material below. */
  const doneTasks: { id: number; doneById: number | null; dueDate: string }[] = [];
  /** The fire safety check's latest past task in its first room, done below through the verb with its checklist. */
  let inspected: number | null = null;
  for (const spec of plans) {
    const plan = await createPlannedMaintenance(db, {
      entityId,
      name: spec.name,
      maintenanceTypeId: spec.type.id,
      instructions: spec.type.instructions,
      startDate: spec.start,
      endDate: spec.end,
      occurrenceInterval: spec.interval,
      occurrenceUnit: spec.unit,
      timeOfDay: spec.time ? `${spec.time}:00` : null,
      assigneeIds: spec.assignees,
      roomIds: spec.rooms ?? [],
      equipmentItemIds: (spec.items ?? []).map((it) => it.id),
      locations: spec.building ? [{ objectType: ObjectType.BUILDING, buildingId: buildingIds[spec.building] }] : [],
    });
    planIds.push(plan.id);
    const where: Where[] = [
      ...(spec.rooms ?? []).map((roomId) => ({ roomId })),
      ...(spec.items ?? []).map((it) => ({ roomId: it.roomId, equipmentItemId: it.id })),
      ...(spec.building ? roomsOf(spec.building).map((roomId) => ({ roomId })) : []),
    ];
    const past = occurrenceDates({ startDate: spec.start, endDate: spec.end, occurrenceInterval: spec.interval, occurrenceUnit: spec.unit }, spec.start, addDays(today, -1));
    for (const [index, due] of past.entries()) {
      const open = index >= past.length - (spec.open ?? 0);
      for (const [place, at] of where.entries()) {
        const inspection = spec.type === fireType && index === past.length - 1 && place === 0;
        const task = await createTask(db, {
          entityId,
          plannedMaintenanceId: plan.id,
          roomId: at.roomId,
          equipmentItemId: at.equipmentItemId ?? null,
          dueDate: due,
          dueTime: spec.time ? `${spec.time}:00` : null,
          ...(open || inspection
            ? { status: TaskStatus.PENDING }
            : { status: TaskStatus.DONE, doneAt: new Date(localInstant(due, spec.time ?? "11:00", DEFAULT_TIME_ZONE).getTime() + HOUR / 2), doneById: spec.assignees[0] }),
        });
        if (!open && !inspection) doneTasks.push({ id: task.id, doneById: task.doneById, dueDate: due });
        if (inspection) inspected = task.id;
      }
    }
  }
  // Time and material on the three latest done tasks (decision 065): the doer's time at their rate
  // (the rates are set with the incidents' work above), a filter bought for one.
  const TASK_WORK: [number, string][] = [
    [40, "Replaced the filters; the old ones were clogged."],
    [25, "Routine check, nothing to report."],
    [55, "Checked and cleaned; one part to watch."],
  ];
  for (const [index, task] of doneTasks.slice(-TASK_WORK.length).entries()) {
    if (!task.doneById) continue;
    const [minutes, note] = TASK_WORK[index];
    const [{ rate }] = await rows<{ rate: string | null }>(
      db,
      sql`select coalesce(u.hourly_rate, e.default_hourly_rate)::text as rate from users u join entities e on e.id = u.entity_id where u.id = ${task.doneById} and u.entity_id = ${entityId}`,
    );
    await db.insert(timeEntries).values({ entityId, taskId: task.id, userId: task.doneById, workedOn: task.dueDate, minutes, hourlyRate: rate, note, createdById: task.doneById });
    if (index === 0) await db.insert(materialLines).values({ entityId, taskId: task.id, description: "Air filter", quantity: "2", unitCost: "14.90", createdById: task.doneById });
  }
  // The technician's last fire safety inspection: the pressure was low, which opened an incident.
  if (inspected !== null) {
    const [seal, pressure, lighting, remarks] = fireChecks;
    await completeTask(actingAs(services, technician), inspected, {
      checks: { [seal]: "pass", [pressure]: "10.5", [lighting]: "pass", [remarks]: "Extinguisher by the east exit to be refilled." },
    });
  }
  // From today to the horizon, as the verbs and the nightly schedule make them.
  await regeneratePlans(asAdmin, planIds, { today });
}

/** The demo's service-level targets per priority, in working hours: response, resolution. */
const DEMO_TARGET_HOURS: Record<TargetPriority, [number, number]> = {
  critical: [1, 8],
  high: [4, 24],
  medium: [8, 40],
  low: [24, 80],
  none: [8, 40],
};

/** The latest instant (ms) at least `minutes` working minutes before `to`, not before `earliest`. */
function workingTimeBefore(to: Date, minutes: number, calendar: WorkingCalendar, earliest: number): number {
  let [low, high] = [earliest, to.getTime()];
  if (clockMinutesBetween(new Date(low), to, "working", calendar) <= minutes) return low;
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2);
    if (clockMinutesBetween(new Date(middle), to, "working", calendar) >= minutes) low = middle;
    else high = middle;
  }
  return low;
}

/** A second, small tenant to make isolation testable. */
async function seedOtherOrg(services: SeedServices, now: Date): Promise<void> {
  const db = services.db;
  const entity = await createEntity(db, {
    name: OTHER_ENTITY_NAME,
    vatNumber: "BE0987654312",
    streetName: "Korenmarkt",
    streetNumber: "10",
    postalCode: "9000",
    city: "Gent",
    country: "BE",
    billingSameAsAddress: true,
    greetingEn: "Hello from Other Org.",
    greetingFr: "Bonjour de la part d'Other Org.",
    greetingNl: "Hallo van Other Org.",
    templateColor: "#7c2d12",
    templateTextColor: "#ffffff",
  });
  const entityId = entity.id;
  const admin = await createUser(db, {
    entityId,
    email: DEMO_ACCOUNTS.other,
    name: "Omar",
    surname: "Vermeulen",
    role: Role.ADMINISTRATOR,
    status: UserStatus.ACTIVE,
  });
  const asAdmin = actingAs(services, admin);
  const facility = await createFacility(asAdmin, { name: "Head Office", description: "Other Org headquarters." });
  const building = await createBuilding(asAdmin, {
    facilityId: facility.id,
    name: "Tower",
    streetName: "Korenmarkt",
    streetNumber: "10",
    postalCode: "9000",
    city: "Gent",
    country: "BE",
  });
  const roomType = await createRoomType(asAdmin, { roomTypeName: "Office", tags: ["workspace"] });
  const category = await createCategory(asAdmin, { categoryName: "IT", tags: ["it"] });
  const printerType = await createEquipmentType(asAdmin, { categoryId: category.id, equipmentName: "Printer", notes: "Colour laser printer." });
  const reception = await createRoom(asAdmin, {
    buildingId: building.id,
    roomTypeId: roomType.id,
    name: "Reception",
    floor: "0",
    equipments: [{ equipmentTypeId: printerType.id, internalReference: "PRN-001" }],
  });
  const boardRoom = await createRoom(asAdmin, {
    buildingId: building.id,
    roomTypeId: roomType.id,
    name: "Board room",
    floor: "5",
    equipments: [{ equipmentTypeId: printerType.id, internalReference: "PRN-002" }],
  });
  const printer = reception.equipments[0];
  const incidentType = await createIncidentType(db, {
    entityId,
    nameEn: "Printer problem",
    nameFr: "Problème d'imprimante",
    nameNl: "Printerprobleem",
    defaultPriority: Priority.MEDIUM,
    roomTypeIds: [roomType.id],
    equipmentTypeIds: [printerType.id],
  });
  const base = { entityId, incidentTypeId: incidentType.id, priority: Priority.MEDIUM };
  await createIncident(db, {
    ...base,
    title: "Paper jam",
    roomId: reception.id,
    equipmentItemId: printer.id,
    createdAt: new Date(now.getTime() - 20 * DAY),
    status: IncidentStatus.DONE,
    doneAt: new Date(now.getTime() - 19 * DAY),
    assigneeId: admin.id,
    reporterEmails: ["visitor@example.org"],
  });
  await createIncident(db, {
    ...base,
    title: "Toner empty",
    roomId: reception.id,
    equipmentItemId: printer.id,
    createdAt: new Date(now.getTime() - 5 * DAY),
    status: IncidentStatus.IN_PROGRESS,
    assigneeId: admin.id,
  });
  await createIncident(db, {
    ...base,
    title: "Projector missing",
    roomId: boardRoom.id,
    createdAt: new Date(now.getTime() - DAY),
    status: IncidentStatus.PENDING,
    priority: null,
  });
}

// ---------------------------------------------------------------------------
// Scale seed (benchmarks)
// ---------------------------------------------------------------------------

export interface SeedScaleOptions {
  log?: (message: string) => void;
  /** Incidents per INSERT statement (default 100,000). */
  batchSize?: number;
}

export interface SeedScaleResult {
  created: boolean;
  entityId: number;
  counts: {
    facilities: number;
    buildings: number;
    rooms: number;
    equipmentItems: number;
    incidents: number;
    incidentEvents: number;
    incidentComments: number;
    users: number;
  };
}

/**
 * The newest incident of the scale entity (the highest short id) has this history, for the incident
 * view's benchmark ("an incident with 200 comments and 500 events").
 */
export const SCALE_BUSY_INCIDENT = { comments: 200, events: 500 } as const;

/** The row counts `seedScale(db, scale)` produces. */
export function scaleCounts(scale: number) {
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`scale must be a positive number: ${scale}`);
  const facilities = Math.max(1, Math.round(50 * scale));
  const buildings = Math.max(facilities, Math.round(1_000 * scale));
  const rooms = Math.max(buildings, Math.round(50_000 * scale));
  return {
    facilities,
    buildings,
    rooms,
    equipmentItems: Math.round(200_000 * scale),
    incidents: Math.max(1, Math.round(1_000_000 * scale)),
    roomTypes: 20,
    categories: 20,
    equipmentTypes: 200,
    incidentTypes: 50,
    technicians: Math.max(3, Math.round(100 * scale)),
    managers: Math.max(1, Math.round(10 * scale)),
  };
}

const SCALE_CITIES = [
  "Brussels",
  "Antwerpen",
  "Gent",
  "Leuven",
  "Liège",
  "Namur",
  "Brugge",
  "Mons",
  "Hasselt",
  "Charleroi",
];
const SCALE_STREETS = ["Stationsstraat", "Rue de la Gare", "Kerkstraat", "Rue Royale", "Dorpsstraat", "Avenue Louise"];
const SCALE_ROOM_TYPES = [
  "Office", "Open-plan office", "Meeting room", "Classroom", "Auditorium", "Laboratory", "Sanitary", "Kitchen",
  "Cafeteria", "Storage", "Technical room", "Corridor", "Reception", "Library", "Workshop", "Server room",
  "Parking", "Locker room", "Archive", "Outdoor area",
];
const SCALE_CATEGORIES = [
  "Audio-visual", "Heating", "Cooling", "Ventilation", "Lab equipment", "Kitchen", "IT", "Printing", "Fire safety",
  "Access control", "Lifts", "Lighting", "Sanitary", "Furniture", "Networking", "Security", "Energy", "Water",
  "Outdoor", "Miscellaneous",
];
/** 25 kinds × 8 models = 200 generic equipments: [name, reference prefix, category index]. */
const SCALE_EQUIPMENT_KINDS: [string, string, number][] = [
  ["Projector", "PRJ", 0], ["Display screen", "SCR", 0], ["Air conditioning unit", "ACU", 2], ["Radiator", "RAD", 1],
  ["Fume hood", "FMH", 4], ["Coffee machine", "COF", 5], ["Printer", "PRN", 7], ["Desktop computer", "PCS", 6],
  ["Water dispenser", "WAT", 17], ["Fire extinguisher", "EXT", 8], ["Smoke detector", "SMK", 8],
  ["Badge reader", "ACR", 9], ["Elevator", "ELV", 10], ["Ventilation unit", "VNT", 3], ["Boiler", "BLR", 1],
  ["Lighting panel", "LGT", 11], ["Hand dryer", "HDR", 12], ["Fridge", "FRG", 5], ["Desk", "DSK", 13],
  ["Dishwasher", "DSW", 5], ["Whiteboard", "WBD", 13], ["Video conference system", "VCS", 0],
  ["Wi-Fi access point", "WAP", 14], ["Security camera", "CAM", 15], ["EV charger", "EVC", 16],
];
/** 10 incident kinds [en, fr, nl, 3 titles] × 5 zones = 50 incident types. */
const SCALE_INCIDENT_KINDS: [string, string, string, string, string, string][] = [
  [
    "Broken equipment",
    "Équipement défectueux",
    "Defect toestel",
    "Device does not start",
    "Device makes a strange noise",
    "Display is broken",
  ],
  [
    "Heating problem",
    "Problème de chauffage",
    "Verwarmingsprobleem",
    "Too cold",
    "Radiator does not heat",
    "Heating makes noise",
  ],
  [
    "Cooling problem",
    "Problème de climatisation",
    "Koelingsprobleem",
    "Too hot",
    "Air conditioning leaks",
    "Air conditioning is noisy",
  ],
  [
    "Cleaning needed",
    "Nettoyage nécessaire",
    "Schoonmaak nodig",
    "Bins are full",
    "Floor is dirty",
    "Soap dispenser empty",
  ],
  [
    "Water leak",
    "Fuite d'eau",
    "Waterlek",
    "Water on the floor",
    "Leaking tap",
    "Ceiling drips",
  ],
  [
    "Lighting failure",
    "Panne d'éclairage",
    "Defecte verlichting",
    "Light flickers",
    "Lamp broken",
    "Emergency light off",
  ],
  [
    "Door or lock problem",
    "Problème de porte ou de serrure",
    "Probleem met deur of slot",
    "Door does not close",
    "Badge refused",
    "Lock is stuck",
  ],
  [
    "IT or network problem",
    "Problème informatique ou réseau",
    "IT- of netwerkprobleem",
    "No Wi-Fi",
    "Printer offline",
    "Screen does not connect",
  ],
  [
    "Safety issue",
    "Problème de sécurité",
    "Veiligheidsprobleem",
    "Smoke detector beeps",
    "Emergency exit blocked",
    "Fire extinguisher missing",
  ],
  [
    "Furniture damage",
    "Mobilier endommagé",
    "Beschadigd meubilair",
    "Broken chair",
    "Wobbly table",
    "Damaged cupboard",
  ],
];
const SCALE_ZONES: [string, string, string][] = [
  ["", "", ""],
  ["offices", "bureaux", "kantoren"],
  ["labs", "laboratoires", "labo's"],
  ["public areas", "espaces publics", "publieke ruimtes"],
  ["outdoor", "extérieur", "buiten"],
];
/** Comments of the scale seed: half in English, a quarter each in French and Dutch. */
const SCALE_COMMENTS = (() => {
  const texts = [...PROGRESS_COMMENTS, ...DONE_COMMENTS];
  return [0, 0, 1, 2].flatMap((lang) => texts.map((t) => t[lang]));
})();
const SCALE_TAGS = ["urgent", "recurring", "contractor", "warranty", "weekend", "student", "visitor", "follow-up"];

/** An integer inlined into SQL (after checking it is one). */
function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return sql.raw(String(n));
}
function num(n: number): SQL {
  if (!Number.isFinite(n)) throw new TypeError(`not a finite number: ${n}`);
  return sql.raw(String(n));
}
function intArray(values: number[]): SQL {
  for (const v of values) int(v);
  return sql.raw(`array[${values.join(",")}]::int[]`);
}
function textArray(values: string[]): SQL {
  return sql.raw(`array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(",")}]::text[]`);
}

/**
 * SQL for a random report code in the format of `newReportCode()`, from `bytes` (a `bytea` column
 * holding `uuid_send(gen_random_uuid())`): one alphabet symbol per fully random byte (bytes 6 and 8
 * carry the uuid version and variant bits and are skipped).
 */
function reportCodeSql(bytes: string): SQL {
  const randomBytes = [0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15];
  if (REPORT_CODE_LENGTH > randomBytes.length || REPORT_CODE_ALPHABET.length !== 32) {
    throw new Error("reportCodeSql expects at most 14 characters of a 32-symbol alphabet");
  }
  const parts = randomBytes
    .slice(0, REPORT_CODE_LENGTH)
    .map((i) => `substr('${REPORT_CODE_ALPHABET}', 1 + (get_byte(${bytes}, ${i}) & 31), 1)`);
  return sql.raw(parts.join(" || "));
}

/**
 * Benchmark data: a new entity "Scale N" with, at scale 1, ≈50 facilities, 1,000 buildings, 50,000
 * rooms, 200,000 equipment items and 1,000,000 incidents over two years (≈3 events each: CREATED,
 * ASSIGNED when assigned, ADD_TAG per tag, STATUS_UPDATE unless pending; ≈0.5 comments each in three
 * languages; SCALE_BUSY_INCIDENT), 20 room types, 20 categories, 200 generic equipments, 50 incident types, the accounts of
 * SCALE_ACCOUNTS and more technicians. Everything is inserted set-based (`insert ... select ... from
 * generate_series`), incidents in batches, in one transaction; then ANALYZE. Skipped (created:
 * false) when `scale-admin@demo.test` exists.
 */
export async function seedScale(db: Db, scale: number, options: SeedScaleOptions = {}): Promise<SeedScaleResult> {
  const counts = scaleCounts(scale);
  const log = options.log ?? (() => {});
  const batchSize = options.batchSize ?? 100_000;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;

  const existing = await userExists(db, SCALE_ACCOUNTS.admin);
  if (existing) {
    log(`${SCALE_ACCOUNTS.admin} exists: scale data already seeded (entity ${existing.entityId}), nothing to do`);
    return { created: false, entityId: existing.entityId, counts: await countEntity(db, existing.entityId) };
  }

  const entityId = await db.transaction(async (tx) => {
    // Big INSERT ... SELECTs look costly to the planner, whose JIT compiling then costs more than it saves.
    await tx.execute(sql`set local jit = off`);
    const entity = await createEntity(tx, {
      name: `Scale ${scale}`,
      streetName: "Rue de la Loi",
      streetNumber: "100",
      postalCode: "1000",
      city: "Brussels",
      country: "BE",
      greetingEn: "Benchmark entity.",
    });
    const e = int(entity.id);
    log(`entity "${entity.name}" (id ${entity.id}): ${JSON.stringify(counts)}`);

    // Users
    await createUser(tx, {
      entityId: entity.id,
      email: SCALE_ACCOUNTS.admin,
      name: "Scale",
      surname: "Admin",
      role: Role.ADMINISTRATOR,
    });
    const managers = [
      await createUser(tx, {
        entityId: entity.id,
        email: SCALE_ACCOUNTS.manager,
        name: "Scale",
        surname: "Manager",
        role: Role.FACILITY_MANAGER,
        receiveNotification: true,
      }),
    ];
    for (let k = 2; k <= counts.managers; k++) {
      managers.push(
        await createUser(tx, {
          entityId: entity.id,
          email: `scale-manager-${k}@demo.test`,
          name: "Manager",
          surname: String(k),
          role: Role.FACILITY_MANAGER,
        }),
      );
    }
    const technicians = [
      await createUser(tx, {
        entityId: entity.id,
        email: SCALE_ACCOUNTS.technician,
        name: "Scale",
        surname: "Technician",
        role: Role.TECHNICIAN,
      }),
    ];
    for (let k = 2; k <= counts.technicians; k++) {
      technicians.push(
        await createUser(tx, {
          entityId: entity.id,
          email: `scale-tech-${k}@demo.test`,
          name: "Technician",
          surname: String(k),
          role: Role.TECHNICIAN,
        }),
      );
    }
    log(`users: ${1 + managers.length + technicians.length} (${elapsed()})`);

    // Facilities and buildings
    const F = counts.facilities;
    const B = counts.buildings;
    const R = counts.rooms;
    const I = counts.equipmentItems;
    const N = counts.incidents;
    const fBase = (await reserveShortIds(tx, entity.id, "facility", F)) - F;
    await tx.execute(sql`
      insert into facilities (entity_id, short_id, name, description)
      select ${e}, ${int(fBase)} + g,
        (${textArray(SCALE_CITIES)})[1 + (g - 1) % 10] || ' site ' || lpad(g::text, 3, '0'),
        'Benchmark facility ' || g
      from generate_series(1, ${int(F)}) as g`);
    const bBase = (await reserveShortIds(tx, entity.id, "building", B)) - B;
    await tx.execute(sql`
      insert into buildings (entity_id, facility_id, short_id, name, description, street_name, street_number,
        postal_code, city, country)
      select ${e}, f.id, ${int(bBase)} + g, 'Building ' || lpad(g::text, 4, '0'), null,
        (${textArray(SCALE_STREETS)})[1 + g % 6], (1 + g % 200)::text, (1000 + (g * 37) % 9000)::text,
        (${textArray(SCALE_CITIES)})[1 + (f.short_id - ${int(fBase)} - 1) % 10], 'BE'
      from generate_series(1, ${int(B)}) as g
      join facilities f on f.entity_id = ${e} and f.short_id = ${int(fBase)} + 1 + (g - 1) % ${int(F)}`);
    log(`facilities: ${F}, buildings: ${B} (${elapsed()})`);

    // Room types, categories, generic equipment, incident types
    const roomTypeIds = (
      await rows<{ id: number }>(
        tx,
        sql`insert into room_types (entity_id, name, tags)
          select ${e}, name, case when ord % 3 = 0 then array['tag-' || ord] else '{}'::text[] end
          from unnest(${textArray(SCALE_ROOM_TYPES)}) with ordinality as t(name, ord)
          order by ord returning id`,
      )
    ).map((r) => r.id);
    const categoryIds = (
      await rows<{ id: number }>(
        tx,
        sql`insert into equipment_categories (entity_id, name, tags)
          select ${e}, name, array[lower(split_part(name, ' ', 1))]
          from unnest(${textArray(SCALE_CATEGORIES)}) with ordinality as t(name, ord)
          order by ord returning id`,
      )
    ).map((r) => r.id);
    const kinds = SCALE_EQUIPMENT_KINDS;
    const equipmentTypeIds = (
      await rows<{ id: number }>(
        tx,
        sql`insert into equipment_types (entity_id, category_id, name, notes, tags)
          select ${e}, (${intArray(categoryIds)})[1 + (${intArray(kinds.map((k) => k[2]))})[1 + (g - 1) % 25]],
            (${textArray(kinds.map((k) => k[0]))})[1 + (g - 1) % 25] || ' model ' || chr(65 + (g - 1) / 25),
            'Benchmark equipment type ' || g, '{}'::text[]
          from generate_series(1, ${int(counts.equipmentTypes)}) as g
          order by g returning id`,
      )
    ).map((r) => r.id);
    const names = (lang: 0 | 1 | 2) =>
      textArray(
        Array.from({ length: counts.incidentTypes }, (_, k) => {
          const kind = SCALE_INCIDENT_KINDS[k % 10];
          const zone = SCALE_ZONES[Math.floor(k / 10) % SCALE_ZONES.length][lang];
          return zone ? `${kind[lang]} – ${zone}` : kind[lang];
        }),
      );
    const incidentTypeIds = (
      await rows<{ id: number }>(
        tx,
        sql`insert into incident_types (entity_id, name_en, name_fr, name_nl, default_priority,
            reporter_may_change_priority, status)
          select ${e}, (${names(0)})[g], (${names(1)})[g], (${names(2)})[g], (g % 4)::smallint, g % 3 = 0,
            ${int(IncidentTypeStatus.ACTIVE)}
          from generate_series(1, ${int(counts.incidentTypes)}) as g
          order by g returning id`,
      )
    ).map((r) => r.id);
    const itArray = intArray(incidentTypeIds);
    await tx.execute(sql`
      insert into incident_type_room_types (entity_id, incident_type_id, room_type_id)
      select distinct ${e}, (${itArray})[g], (${intArray(roomTypeIds)})[1 + (g * j * 7) % 20]
      from generate_series(1, ${int(incidentTypeIds.length)}) as g, generate_series(1, 2) as j`);
    await tx.execute(sql`
      insert into incident_type_equipment_types (entity_id, incident_type_id, equipment_type_id)
      select distinct ${e}, (${itArray})[g], (${intArray(equipmentTypeIds)})[1 + ((g - 1) % 25 + 25 * j) % 200]
      from generate_series(1, ${int(incidentTypeIds.length)}) as g, generate_series(0, 3) as j`);
    await tx.execute(sql`
      insert into incident_type_default_assignees (entity_id, incident_type_id, user_id)
      select ${e}, (${itArray})[g], ${int(technicians[0].id)}
      from generate_series(5, ${int(incidentTypeIds.length)}, 5) as g`);
    log(`room types: 20, categories: 20, equipment types: 200, incident types: 50 (${elapsed()})`);

    // Access (decision 022): managers are linked to every facility; technicians one facility and two buildings elsewhere.
    await tx.execute(sql`
      insert into user_linked_objects (entity_id, user_id, facility_id)
      select ${e}, u, f.id from unnest(${intArray(managers.map((m) => m.id))}) as u
      cross join facilities f where f.entity_id = ${e}`);
    const techArray = intArray(technicians.map((t) => t.id));
    await tx.execute(sql`
      insert into user_linked_objects (entity_id, user_id, facility_id)
      select ${e}, (${techArray})[k], f.id
      from generate_series(1, ${int(technicians.length)}) as k
      join facilities f on f.entity_id = ${e} and f.short_id = ${int(fBase)} + 1 + (k - 1) % ${int(F)}`);
    if (F > 1) {
      await tx.execute(sql`
        insert into user_linked_objects (entity_id, user_id, building_id)
        select ${e}, (${techArray})[k], b.id
        from generate_series(1, ${int(technicians.length)}) as k
        join facilities f on f.entity_id = ${e} and f.short_id = ${int(fBase)} + 1 + k % ${int(F)}
        join lateral (select id from buildings where facility_id = f.id order by id limit 2) b on true`);
    }

    // Rooms (+ a dense 1..R numbering in a temporary table, for random picks)
    const rBase = (await reserveShortIds(tx, entity.id, "room", R)) - R;
    await tx.execute(sql`
      insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor, description)
      select ${e}, b.id, (${intArray(roomTypeIds)})[1 + floor(power(x.p, 2) * 20)::int], ${int(rBase)} + x.g,
        'B' || (b.short_id - ${int(bBase)}) || '-' || (x.j % 6) || '.' || lpad((x.j + 1)::text, 3, '0'),
        (x.j % 6)::text, null
      from (select g, (g - 1) / ${int(B)} as j, random() as p from generate_series(1, ${int(R)}) as g) x
      join buildings b on b.entity_id = ${e} and b.short_id = ${int(bBase)} + 1 + (x.g - 1) % ${int(B)}`);
    await tx.execute(sql`
      create temporary table scale_rooms (n int primary key, id int not null, name text not null, floor text not null)
      on commit drop`);
    await tx.execute(sql`
      insert into scale_rooms
      select row_number() over (order by id), id, name, floor from rooms where entity_id = ${e}`);
    await tx.execute(sql`analyze scale_rooms`);
    await insertReportIdentifiers(tx, entity.id, "room");
    log(`rooms: ${R} with report identifiers (${elapsed()})`);

    // Equipment items: the first R go one per room, the rest anywhere.
    const prefixes = textArray(kinds.map((k) => k[1]));
    if (I > 0) {
      await tx.execute(sql`
        insert into equipment_items (entity_id, room_id, equipment_type_id, internal_reference)
        select ${e}, r.id, (${intArray(equipmentTypeIds)})[x.t],
          (${prefixes})[1 + (x.t - 1) % 25] || '-' || lpad(x.g::text, 7, '0')
        from (
          select g,
            case when g <= ${int(R)} then g else 1 + floor(random() * ${int(R)})::int end as rn,
            1 + floor(power(random(), 1.5) * 200)::int as t
          from generate_series(1, ${int(I)}) as g
        ) x
        join scale_rooms r on r.n = x.rn`);
    }
    await tx.execute(sql`
      create temporary table scale_items (n int primary key, id int not null, room_n int not null) on commit drop`);
    await tx.execute(sql`
      insert into scale_items
      select row_number() over (order by i.id), i.id, r.n
      from equipment_items i join scale_rooms r on r.id = i.room_id
      where i.entity_id = ${e}`);
    await tx.execute(sql`analyze scale_items`);
    await insertReportIdentifiers(tx, entity.id, "equipment_item");
    log(`equipment items: ${I} with report identifiers (${elapsed()})`);

    // Incidents, in batches: chronological over two years, so short ids follow creation order.
    const iBase = (await reserveShortIds(tx, entity.id, "incident", N)) - N;
    const assignees = [...technicians, ...managers].map((u) => u.id);
    const titles = textArray(SCALE_INCIDENT_KINDS.flatMap((k) => [k[3], k[4], k[5]]));
    const slotSeconds = (730 * 86400) / N;
    const managerIds = intArray(managers.map((m) => m.id));
    /** One of the managers, by the incident id in `column`. */
    const managerOf = (column: string) => sql`(${managerIds})[1 + ${sql.raw(column)} % ${int(managers.length)}]`;
    const commentBodies = textArray(SCALE_COMMENTS);
    for (let from = 1; from <= N; from += batchSize) {
      const to = Math.min(N, from + batchSize - 1);
      await tx.execute(sql`
        with src as (
          select g,
            now() - interval '730 days'
              + ((g - 1) + random()) * ${num(slotSeconds)} * interval '1 second' as created_at,
            random() as p_status, random() as p_priority, random() as p_assign, random() as p_who,
            random() as p_item, random() as p_tag, random() as p_done, random() as p_occ, random() as p_title,
            1 + floor(power(random(), 1.6) * ${int(incidentTypeIds.length)})::int as type_n,
            1 + floor(random() * ${int(R)})::int as room_n,
            1 + floor(random() * ${int(Math.max(I, 1))})::int as item_n
          from generate_series(${int(from)}, ${int(to)}) as g
        ), shaped as (
          select s.*,
            (case when s.created_at > now() - interval '30 days' then
              case when p_status < 0.40 then 0 when p_status < 0.70 then 1 when p_status < 0.90 then 2
                when p_status < 0.97 then 3 else 4 end
            else
              case when p_status < 0.78 then 2 when p_status < 0.88 then 3 when p_status < 0.94 then 4
                when p_status < 0.97 then 1 else 0 end
            end)::smallint as status,
            case when s.p_item < 0.4 then it.id end as item_id,
            coalesce(case when s.p_item < 0.4 then it.room_n end, s.room_n) as final_room_n
          from src s left join scale_items it on it.n = s.item_n
        ), placed as (
          select sh.*, r.id as room_id, r.name as room_name, r.floor as room_floor,
            case when sh.status in (2, 4)
              then least(sh.created_at + interval '1 hour' + sh.p_done * interval '10 days', now()) end as done_at
          from shaped sh join scale_rooms r on r.n = sh.final_room_n
        ), ins as (
          insert into incidents (entity_id, short_id, title, description, room_id, equipment_item_id, location,
            floor, occurrences, last_occurrence_at, priority, status, assignee_id, incident_type_id, tags,
            created_at, updated_at, done_at)
          select ${e}, ${int(iBase)} + g,
            (${titles})[((type_n - 1) % 10) * 3 + 1 + floor(p_title * 3)::int],
            'Reported through the QR code of room ' || room_name || '.',
            room_id, item_id, room_name, room_floor,
            case when p_occ < 0.9 then 1 else 2 + floor((p_occ - 0.9) * 30)::int end,
            case when p_occ < 0.9 then created_at else least(created_at + interval '2 days', now()) end,
            (case when p_priority < 0.08 then null when p_priority < 0.38 then 0 when p_priority < 0.78 then 1
              when p_priority < 0.95 then 2 else 3 end)::smallint,
            status,
            case when status = 0 and p_assign < 0.5 then null
              else (${intArray(assignees)})[1 + floor(power(p_who, 1.5) * ${int(assignees.length)})::int] end,
            (${itArray})[type_n],
            case when p_tag < 0.12 then array[(${textArray(SCALE_TAGS)})[1 + floor(p_tag / 0.12 * 8)::int]]
              when p_tag < 0.16 then array[(${textArray(SCALE_TAGS)})[1 + floor((p_tag - 0.12) / 0.04 * 4)::int],
                (${textArray(SCALE_TAGS)})[5 + floor((p_tag - 0.12) / 0.04 * 4)::int]]
              else '{}'::text[] end,
            created_at,
            coalesce(done_at, least(created_at + p_done * interval '2 days', now())),
            done_at
          from placed
          returning id, title, priority, tags, created_at, updated_at, status, assignee_id
        ), events as (
          -- Reported by an occupier; assigned by a manager soon after; tagged then; the status changed
          -- by the assignee at the last update.
          insert into incident_events (entity_id, incident_id, type, actor_id, old_value, new_value, created_at)
          select ${e}, id, ${int(IncidentEventType.CREATED)}, null::int, null::jsonb,
            jsonb_build_object('title', title, 'status', 0, 'priority', priority), created_at
          from ins
          union all
          select ${e}, ins.id, ${int(IncidentEventType.ASSIGNED)}, ${managerOf("ins.id")}, null::jsonb,
            jsonb_build_object('id', u.id, 'name', u.name || ' ' || u.surname),
            ins.created_at + (ins.updated_at - ins.created_at) * 0.1
          from ins join users u on u.id = ins.assignee_id
          union all
          select ${e}, ins.id, ${int(IncidentEventType.ADD_TAG)}, ${managerOf("ins.id")}, null::jsonb, to_jsonb(t.tag),
            ins.created_at + (ins.updated_at - ins.created_at) * 0.1
          from ins cross join unnest(ins.tags) as t(tag)
          union all
          select ${e}, id, ${int(IncidentEventType.STATUS_UPDATE)}, assignee_id, to_jsonb(0), to_jsonb(status), updated_at
          from ins where status <> 0
        )
        -- Comments (≈0.5 per incident) by the assignee (else a manager), between creation and the last update.
        insert into incident_comments (entity_id, incident_id, author_id, body, created_at, edited_at, edited_by_id)
        select ${e}, c.incident_id, c.author_id, c.body, c.at,
          case when c.p_edit < 0.05 then least(c.at + interval '12 minutes', now()) end,
          case when c.p_edit < 0.05 then c.author_id end
        from (
          select x.id as incident_id, coalesce(x.assignee_id, ${managerOf("x.id")}) as author_id,
            (${commentBodies})[1 + floor(random() * ${int(SCALE_COMMENTS.length)})::int] as body,
            x.created_at + (x.updated_at - x.created_at) * (k::float8 / (x.n + 1)) as at,
            random() as p_edit
          from (
            select y.*, case when y.r < 0.62 then 0 when y.r < 0.9 then 1 else 2 end as n
            from (select ins.*, random() as r from ins) y
          ) x
          cross join lateral generate_series(1, x.n) as k
        ) c`);
      log(`incidents: ${to} / ${N} (${elapsed()})`);
    }

    // The incident view's benchmark wants one incident with a long history: the newest one
    // gets SCALE_BUSY_INCIDENT's comments and events (tags added and removed again, in pairs).
    const [busy] = await rows<{ id: number; comments: number; events: number }>(
      tx,
      sql`select i.id,
          (select count(*)::int from incident_comments c where c.incident_id = i.id) as comments,
          (select count(*)::int from incident_events v where v.incident_id = i.id) as events
        from incidents i where i.entity_id = ${e} and i.short_id = ${int(iBase + N)}`,
    );
    const moreComments = Math.max(0, SCALE_BUSY_INCIDENT.comments - busy.comments);
    const tagPairs = Math.ceil(Math.max(0, SCALE_BUSY_INCIDENT.events - busy.events) / 2);
    await tx.execute(sql`
      insert into incident_comments (entity_id, incident_id, author_id, body, created_at)
      select ${e}, i.id, coalesce(i.assignee_id, ${int(managers[0].id)}),
        (${commentBodies})[1 + g % ${int(SCALE_COMMENTS.length)}],
        i.created_at + (now() - i.created_at) * (g::float8 / ${int(moreComments + 1)})
      from incidents i cross join generate_series(1, ${int(moreComments)}) as g
      where i.id = ${int(busy.id)}`);
    await tx.execute(sql`
      insert into incident_events (entity_id, incident_id, type, actor_id, old_value, new_value, created_at)
      select ${e}, i.id,
        case when j = 0 then ${int(IncidentEventType.ADD_TAG)} else ${int(IncidentEventType.DELETE_TAG)} end,
        ${int(managers[0].id)},
        case when j = 1 then to_jsonb(('note-' || g)::text) end,
        case when j = 0 then to_jsonb(('note-' || g)::text) end,
        i.created_at + (now() - i.created_at) * ((2 * g + j)::float8 / ${int(2 * tagPairs + 2)})
      from incidents i cross join generate_series(1, ${int(tagPairs)}) as g cross join generate_series(0, 1) as j
      where i.id = ${int(busy.id)}`);
    await tx.execute(sql`update incidents set updated_at = now() where id = ${int(busy.id)}`);
    log(`incident #${iBase + N}: ${SCALE_BUSY_INCIDENT.comments} comments, ${busy.events + 2 * tagPairs} events (${elapsed()})`);

    // Notifications for the manager: the latest 1% of incidents, 70% read.
    const notified = Math.max(10, Math.round(N * 0.01));
    await tx.execute(sql`
      with d as (
        insert into notification_details (entity_id, type, subject, message, incident_id, created_at)
        select ${e}, ${int(NotificationType.INCIDENT_CREATED)}, 'New incident #' || short_id || ': ' || title,
          jsonb_build_object('incidentPriority', priority, 'incidentDescription', description,
            'incidentTitle', title, 'incidentShortId', short_id),
          id, created_at
        from incidents where entity_id = ${e} order by short_id desc limit ${int(notified)}
        returning id, created_at
      )
      insert into notifications (entity_id, user_id, details_id, read_at, created_at)
      select ${e}, ${int(managers[0].id)}, id,
        case when random() < 0.7 then least(created_at + interval '1 hour', now()) end, created_at
      from d`);
    log(`notifications: ${Math.min(notified, N)} for ${SCALE_ACCOUNTS.manager} (${elapsed()})`);
    return entity.id;
  });

  // Statistics for the planner, and the visibility map so that count queries can use index-only scans
  // (autovacuum would get there later; the benchmark should not depend on when).
  await db.execute(sql`vacuum analyze`);
  log(`vacuum analyze done (${elapsed()})`);
  return { created: true, entityId, counts: await countEntity(db, entityId) };
}

/** Report identifiers for every room / equipment item of the entity that has none (retried on a code clash). */
async function insertReportIdentifiers(db: Db, entityId: number, target: "room" | "equipment_item"): Promise<void> {
  const table = sql.raw(target === "room" ? "rooms" : "equipment_items");
  const column = sql.raw(target === "room" ? "room_id" : "equipment_item_id");
  for (let attempt = 1; ; attempt++) {
    await db.execute(sql`
      insert into report_identifiers (entity_id, code, ${column})
      select ${int(entityId)}, ${reportCodeSql("x.b")}, x.id
      from (
        select t.id, uuid_send(gen_random_uuid()) as b
        from ${table} t
        where t.entity_id = ${int(entityId)}
          and not exists (select 1 from report_identifiers ri where ri.${column} = t.id and ri.archived_at is null)
      ) x
      on conflict (code) do nothing`);
    const [missing] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${table} t
        where t.entity_id = ${int(entityId)}
          and not exists (select 1 from report_identifiers ri where ri.${column} = t.id and ri.archived_at is null)`,
    );
    if (missing.n === 0) return;
    if (attempt >= 5) throw new Error(`could not create unique report codes for ${missing.n} ${target} rows`);
  }
}

async function countEntity(db: Db, entityId: number): Promise<SeedScaleResult["counts"]> {
  const e = int(entityId);
  const [row] = await rows<SeedScaleResult["counts"]>(
    db,
    sql`select
      (select count(*)::int from facilities where entity_id = ${e}) as facilities,
      (select count(*)::int from buildings where entity_id = ${e}) as buildings,
      (select count(*)::int from rooms where entity_id = ${e}) as rooms,
      (select count(*)::int from equipment_items where entity_id = ${e}) as "equipmentItems",
      (select count(*)::int from incidents where entity_id = ${e}) as incidents,
      (select count(*)::int from incident_events where entity_id = ${e}) as "incidentEvents",
      (select count(*)::int from incident_comments where entity_id = ${e}) as "incidentComments",
      (select count(*)::int from users where entity_id = ${e}) as users`,
  );
  return row;
}
