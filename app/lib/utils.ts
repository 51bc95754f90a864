import { clsx, type ClassValue } from "clsx";

/**
 * Compose class names: `clsx` handles conditionals/arrays/objects, then conflicting Tailwind utilities
 * are resolved so the last one wins (`cn("px-2 text-sm", "px-4")` -> `"text-sm px-4"`), like
 * tailwind-merge does for the utilities this app uses, in a tenth of its size (decision 022; the
 * tests compare both on the app's own class lists).
 */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}

const SIZES = /^(xs|sm|base|md|lg|\d?xl|none|full)$/;
const FONT_WEIGHTS = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/;
const ALIGN = /^(left|center|right|justify|start|end)$/;
const NUMBER = /^(\d+(\.\d+)?|px|\[.+\])$/;

/** Classes of one word and the property they set. */
const single: Record<string, string> = {
  block: "display",
  "inline-block": "display",
  inline: "display",
  flex: "display",
  "inline-flex": "display",
  grid: "display",
  "inline-grid": "display",
  contents: "display",
  hidden: "display",
  table: "display",
  "table-cell": "display",
  "table-row": "display",
  "flow-root": "display",
  static: "position",
  fixed: "position",
  absolute: "position",
  relative: "position",
  sticky: "position",
  underline: "decoration-line",
  "no-underline": "decoration-line",
  "line-through": "decoration-line",
  overline: "decoration-line",
  uppercase: "transform-case",
  lowercase: "transform-case",
  capitalize: "transform-case",
  "normal-case": "transform-case",
  italic: "font-style",
  "not-italic": "font-style",
  "sr-only": "sr",
  "not-sr-only": "sr",
  truncate: "truncate",
  grow: "grow",
  shrink: "shrink",
  visible: "visibility",
  invisible: "visibility",
  collapse: "visibility",
  border: "border-w",
  rounded: "rounded",
  shadow: "shadow",
  ring: "ring-w",
  outline: "outline-style",
  transition: "transition",
};

/** The property a utility (without variants) sets; null when it is not one this resolver knows. */
function group(utility: string): string | null {
  const u = utility.replace(/^-/, "");
  if (single[u]) return single[u];
  const dash = u.indexOf("-");
  if (dash < 0) return null;
  const prefix = u.slice(0, dash);
  const value = u.slice(dash + 1);
  switch (prefix) {
    case "text":
      if (SIZES.test(value) || /^\[\d/.test(value)) return "font-size";
      if (ALIGN.test(value)) return "text-align";
      if (/^(ellipsis|clip)$/.test(value)) return "text-overflow";
      if (/^(wrap|nowrap|balance|pretty)$/.test(value)) return "text-wrap";
      return "text-color";
    case "font":
      return FONT_WEIGHTS.test(value) ? "font-weight" : "font-family";
    case "bg":
      return /^(fixed|local|scroll|auto|cover|contain|center|top|bottom|left|right|repeat|no-repeat|clip-.*|origin-.*|none)$/.test(value)
        ? `bg-${value}`
        : "bg-color";
    case "border": {
      if (/^(collapse|separate)$/.test(value)) return "border-collapse";
      if (NUMBER.test(value)) return "border-w";
      if (/^(solid|dashed|dotted|double|hidden|none)$/.test(value)) return "border-style";
      const side = /^([xytrblse])(?:-(.+))?$/.exec(value);
      if (side) return !side[2] || NUMBER.test(side[2]) ? `border-w-${side[1]}` : `border-color-${side[1]}`;
      return "border-color";
    }
    case "rounded": {
      const side = /^(t|r|b|l|s|e|tl|tr|br|bl|ss|se|es|ee)(?:-|$)/.exec(value);
      return side ? `rounded-${side[1]}` : "rounded";
    }
    case "shadow":
      return SIZES.test(value) || value === "inner" ? "shadow" : "shadow-color";
    case "ring":
      if (NUMBER.test(value)) return "ring-w";
      if (value === "inset") return "ring-inset";
      if (value.startsWith("offset-")) return NUMBER.test(value.slice(7)) ? "ring-offset-w" : "ring-offset-color";
      return "ring-color";
    case "outline":
      if (NUMBER.test(value)) return "outline-w";
      if (/^(none|solid|dashed|dotted|double|hidden)$/.test(value)) return "outline-style";
      if (value.startsWith("offset-")) return "outline-offset";
      return "outline-color";
    case "flex":
      if (/^(row|col|row-reverse|col-reverse)$/.test(value)) return "flex-direction";
      if (/^(wrap|nowrap|wrap-reverse)$/.test(value)) return "flex-wrap";
      return "flex";
    case "justify":
      return /^(items|self)-/.test(value) ? `justify-${value.split("-")[0]}` : "justify";
    case "grid":
    case "col":
    case "row":
    case "overflow":
    case "inset":
    case "gap":
    case "space":
    case "divide":
    case "scroll":
    case "min":
    case "max":
    case "underline":
    case "decoration":
    case "place":
    case "auto":
    case "line":
    case "break":
    case "whitespace":
    case "object":
    case "pointer":
    case "select":
    case "list":
    case "translate":
    case "origin":
    case "fill":
    case "stroke":
    case "aspect":
      // Two-word properties: grid-cols, col-span, overflow-x, min-w, underline-offset, ...
      return /^(x|y|cols|rows|span|start|end|w|h|offset|content|items|self|flow|clamp|events)(?:-|$)/.test(value)
        ? `${prefix}-${value.split("-")[0]}`
        : prefix;
    default:
      return PREFIXES.has(prefix) ? prefix : null;
  }
}

/** One-word prefixes of utilities that set one property each. */
const PREFIXES = new Set(
  ("p px py pt pr pb pl ps pe m mx my mt mr mb ml ms me w h size top right bottom left start end z order basis " +
    "grow shrink leading tracking opacity cursor items justify self content animate duration ease delay fill " +
    "stroke accent caret indent align columns float clear indent skew rotate scale blur brightness transform " +
    "will appearance resize snap touch box isolation mix hyphens tab transition").split(" "),
);

/**
 * What a later utility also replaces: `p-4` after `px-2` keeps both (tailwind-merge does too), but
 * `px-4` after `pl-2` drops `pl-2`.
 */
const covers: Record<string, string[]> = {
  p: ["px", "py", "pt", "pr", "pb", "pl", "ps", "pe"],
  px: ["pr", "pl", "ps", "pe"],
  py: ["pt", "pb"],
  m: ["mx", "my", "mt", "mr", "mb", "ml", "ms", "me"],
  mx: ["mr", "ml", "ms", "me"],
  my: ["mt", "mb"],
  gap: ["gap-x", "gap-y"],
  size: ["w", "h"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left", "start", "end"],
  "inset-x": ["right", "left"],
  "inset-y": ["top", "bottom"],
  overflow: ["overflow-x", "overflow-y"],
  rounded: ["rounded-t", "rounded-r", "rounded-b", "rounded-l", "rounded-s", "rounded-e", "rounded-tl", "rounded-tr", "rounded-br", "rounded-bl"],
  "rounded-t": ["rounded-tl", "rounded-tr"],
  "rounded-r": ["rounded-tr", "rounded-br"],
  "rounded-b": ["rounded-br", "rounded-bl"],
  "rounded-l": ["rounded-tl", "rounded-bl"],
  "border-w": ["border-w-x", "border-w-y", "border-w-t", "border-w-r", "border-w-b", "border-w-l", "border-w-s", "border-w-e"],
  "border-w-x": ["border-w-r", "border-w-l"],
  "border-w-y": ["border-w-t", "border-w-b"],
  "border-color": ["border-color-x", "border-color-y", "border-color-t", "border-color-r", "border-color-b", "border-color-l"],
  flex: ["grow", "shrink", "basis"],
  "font-size": ["leading"],
  "line-clamp": ["display", "overflow"],
};

/** Splits `md:hover:!px-4` into its variants (`md:hover:`) and the utility (`px-4`), brackets kept whole. */
function splitVariants(cls: string): [string, string] {
  let depth = 0;
  let last = -1;
  for (let i = 0; i < cls.length; i++) {
    const c = cls[i];
    if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (c === ":" && depth === 0) last = i;
  }
  const variants = cls.slice(0, last + 1);
  const rest = cls.slice(last + 1);
  const important = rest.startsWith("!") || rest.endsWith("!");
  return [variants + (important ? "!" : ""), rest.replace(/^!|!$/g, "")];
}

/** Class lists seen before (components pass the same few hundred strings on every render). */
const merged = new Map<string, string>();

/** Keeps the last utility of each property per variant, and every class it does not know. */
export function mergeClasses(classes: string): string {
  let result = merged.get(classes);
  if (result === undefined) {
    result = resolve(classes);
    if (merged.size >= 2000) merged.clear();
    merged.set(classes, result);
  }
  return result;
}

function resolve(classes: string): string {
  const list = classes.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i];
    const [variants, utility] = splitVariants(cls);
    const key = group(utility);
    if (key === null) {
      if (!taken.has(`${variants}=${utility}`)) kept.push(cls);
      taken.add(`${variants}=${utility}`);
      continue;
    }
    if (taken.has(`${variants}${key}`)) continue;
    taken.add(`${variants}${key}`);
    for (const covered of covers[key] ?? []) taken.add(`${variants}${covered}`);
    kept.push(cls);
  }
  return kept.reverse().join(" ");
}
