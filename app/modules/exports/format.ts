/**
 * How an export writes its values (decision 055), pure: dates and instants as text in the entity's time
 * zone ("2026-11-29 14:05", "2026-11-29": unambiguous in every language, and they sort as text), the
 * enumerations as the reader's words (the `exports` namespace), lists joined by ", ".
 */
import { zoneOffset } from "~/lib/dates";

export type Cell = string | number | null;

/** A text of the `exports` namespace (`values.incidentStatus.0`), in the requester's language. */
export type ExportT = (key: string) => string;

export interface ExportFormatter {
  t: ExportT;
  /** An instant as "YYYY-MM-DD HH:mm" in the entity's time zone; "" for none. */
  instant(at: Date | string | null | undefined): string;
  /** A calendar day (`YYYY-MM-DD`, stored as such) as it is; "" for none. */
  day(day: string | null | undefined): string;
  /** A word of an enumeration: `values.<group>.<value>`. */
  word(group: string, value: number | string | null | undefined): string;
  list(values: readonly (string | null | undefined)[]): string;
  yesNo(value: boolean): string;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

export function exportFormatter(t: ExportT, timeZone: string): ExportFormatter {
  // The zone's offset changes on whole hours only (every zone in use): one lookup per hour of instants,
  // not one Intl call per cell (a million incidents carry two million instants).
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number) => {
    const hour = Math.floor(ms / 3_600_000);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      offset = zoneOffset(ms, timeZone);
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(hour, offset);
    }
    return offset;
  };
  const words = new Map<string, string>();
  return {
    t,
    instant(at) {
      if (at === null || at === undefined) return "";
      const ms = typeof at === "string" ? Date.parse(at) : at.getTime();
      if (!Number.isFinite(ms)) return "";
      const w = new Date(ms + offsetAt(ms));
      return `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
    },
    day(day) {
      return day ?? "";
    },
    word(group, value) {
      if (value === null || value === undefined) return "";
      const key = `values.${group}.${value}`;
      let word = words.get(key);
      if (word === undefined) {
        word = t(key);
        words.set(key, word);
      }
      return word;
    },
    list(values) {
      return values.filter((v): v is string => typeof v === "string" && v !== "").join(", ");
    },
    yesNo(value) {
      return this.word("boolean", value ? "yes" : "no");
    },
  };
}

/** A `t` over one namespace's nested texts (the benchmark and tests read the JSON file directly). */
export function plainT(texts: Record<string, unknown>): ExportT {
  return (key) => {
    let node: unknown = texts;
    for (const part of key.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    return typeof node === "string" ? node : key;
  };
}
