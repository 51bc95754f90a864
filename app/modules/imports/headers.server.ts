import { resources as bundles } from "~/i18n.server";
import { supportedLngs } from "~/i18n";
import { CHOICES, type ChoiceKind, type ImportColumn } from "./columns";

/**
 * What a file's header and choice cells may say, in any of the app's languages: a Dutch template
 * imports for an English user, and an export (same labels) imports back (decision 054). This reads
 * the texts to recognise them; it never writes a translated text.
 */
/** Every language's texts of a namespace (the bundled translations). */
function texts(ns: string): Array<Record<string, unknown>> {
  return supportedLngs.flatMap((lng) => {
    const bundle = bundles[lng]?.[ns];
    return bundle && typeof bundle === "object" ? [bundle as Record<string, unknown>] : [];
  });
}

/** Lower case, accents kept, spaces collapsed, a trailing mandatory mark (`*`) dropped. */
export function normalise(text: string): string {
  return text.replace(/\*+\s*$/, "").replace(/\s+/g, " ").trim().toLocaleLowerCase("en");
}

function lookUp(key: string): string[] {
  const [ns, path] = key.split(":");
  return texts(ns).flatMap((res) => {
    let node: unknown = res;
    for (const part of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
    return typeof node === "string" ? [node] : [];
  });
}

/** The index of each column in the file's header (absent: not in the file). */
export function matchHeader(columns: readonly ImportColumn[], header: string[]): Map<string, number> {
  const positions = new Map<string, number>();
  const names = header.map(normalise);
  for (const column of columns) {
    const accepted = new Set([normalise(column.key), ...lookUp(column.label).map(normalise)]);
    const index = names.findIndex((n) => accepted.has(n));
    if (index >= 0) positions.set(column.key, index);
  }
  return positions;
}

const choiceTables = new Map<ChoiceKind, Map<string, number | boolean>>();

/** The value a choice cell names: a label in any language (the template's or the export's), or the stored value itself (0..n, true/false). */
export function choiceValue(kind: ChoiceKind, cell: string): number | boolean | undefined {
  let table = choiceTables.get(kind);
  if (!table) {
    table = new Map();
    for (const choice of CHOICES[kind]) {
      table.set(normalise(String(choice.value)), choice.value);
      if (typeof choice.value === "boolean") table.set(choice.value ? "1" : "0", choice.value);
      for (const key of [choice.labelKey, ...choice.readKeys]) for (const label of lookUp(key)) table.set(normalise(label), choice.value);
    }
    choiceTables.set(kind, table);
  }
  return table.get(normalise(cell));
}
