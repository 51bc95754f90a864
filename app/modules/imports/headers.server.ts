import enImports from "~/locales/en/imports.json";
import frImports from "~/locales/fr-BE/imports.json";
import nlImports from "~/locales/nl-BE/imports.json";
import enIncidents from "~/locales/en/incidents.json";
import frIncidents from "~/locales/fr-BE/incidents.json";
import nlIncidents from "~/locales/nl-BE/incidents.json";
import enExports from "~/locales/en/exports.json";
import frExports from "~/locales/fr-BE/exports.json";
import nlExports from "~/locales/nl-BE/exports.json";
import enMaintenance from "~/locales/en/maintenance.json";
import frMaintenance from "~/locales/fr-BE/maintenance.json";
import nlMaintenance from "~/locales/nl-BE/maintenance.json";
import { CHOICES, type ChoiceKind, type ImportColumn } from "./columns";

/**
 * What a file's header and choice cells may say, in any of the app's languages: a Dutch template
 * imports for an English user, and an export (same labels) imports back (decision 054). This reads
 * the texts to recognise them; it never writes a translated text.
 */
const IMPORTS = [enImports, frImports, nlImports];
const resources: Record<string, Array<Record<string, unknown>>> = {
  imports: IMPORTS as unknown as Array<Record<string, unknown>>,
  incidents: [enIncidents, frIncidents, nlIncidents] as unknown as Array<Record<string, unknown>>,
  maintenance: [enMaintenance, frMaintenance, nlMaintenance] as unknown as Array<Record<string, unknown>>,
  exports: [enExports, frExports, nlExports] as unknown as Array<Record<string, unknown>>,
};

/** Lower case, accents kept, spaces collapsed, a trailing mandatory mark (`*`) dropped. */
export function normalise(text: string): string {
  return text.replace(/\*+\s*$/, "").replace(/\s+/g, " ").trim().toLocaleLowerCase("en");
}

function lookUp(key: string): string[] {
  const [ns, path] = key.split(":");
  return (resources[ns] ?? []).flatMap((res) => {
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
    const accepted = new Set([normalise(column.key), ...lookUp(`imports:columns.${column.key}`).map(normalise)]);
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
