/**
 * "A bare React render of the same markup" (issue 46): a page's HTML turned back into a tree of plain
 * React elements (no components, no data, no hooks), then rendered with `renderToString` as the server
 * renders a page. What it costs is the floor of server-side rendering that markup: a page that costs much
 * more than this plus the REST call of its rows spends its time elsewhere (routing, loaders, serialising
 * the hydration data, the shell).
 *
 * The markup is React's own output, so a small tokenizer reads it: tags, attributes, text, comments,
 * void elements, and the raw text of <script> and <style> (kept as inner HTML).
 */
import { createElement, Fragment, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RAW = new Set(["script", "style"]);
const RENAMED: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  readonly: "readOnly",
  maxlength: "maxLength",
  minlength: "minLength",
  autocomplete: "autoComplete",
  enctype: "encType",
  colspan: "colSpan",
  rowspan: "rowSpan",
  crossorigin: "crossOrigin",
  srcset: "srcSet",
  novalidate: "noValidate",
  autofocus: "autoFocus",
  viewbox: "viewBox",
  "stroke-width": "strokeWidth",
  "stroke-linecap": "strokeLinecap",
  "stroke-linejoin": "strokeLinejoin",
  "fill-rule": "fillRule",
  "clip-rule": "clipRule",
  inputmode: "inputMode",
  "accept-charset": "acceptCharset",
  "http-equiv": "httpEquiv",
  charset: "charSet",
  datetime: "dateTime",
  formaction: "formAction",
  formmethod: "formMethod",
  formnovalidate: "formNoValidate",
  spellcheck: "spellCheck",
};
const BOOLEAN = new Set(["checked", "selected", "disabled", "hidden", "required", "multiple", "open", "readonly", "novalidate", "autofocus", "async", "defer", "nomodule", "formnovalidate"]);

function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, "&");
}

function styleObject(css: string): Record<string, string> {
  const style: Record<string, string> = {};
  for (const part of css.split(";")) {
    const at = part.indexOf(":");
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (!name) continue;
    const key = name.startsWith("--") ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    style[key] = part.slice(at + 1).trim();
  }
  return style;
}

function props(tag: string, source: string, key: number): Record<string, unknown> {
  const out: Record<string, unknown> = { key };
  const attr = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (let m = attr.exec(source); m; m = attr.exec(source)) {
    const name = m[1].toLowerCase();
    const raw = m[2] ?? m[3] ?? m[4];
    const value = raw === undefined ? "" : decode(raw);
    if (name === "style") out.style = styleObject(value);
    else if (BOOLEAN.has(name)) out[RENAMED[name] ?? name] = true;
    else if (name === "value" && (tag === "input" || tag === "textarea" || tag === "select")) out.defaultValue = value;
    else out[RENAMED[name] ?? name] = value;
  }
  if (tag === "option" && out.selected) delete out.selected;
  return out;
}

interface Frame {
  tag: string;
  attrs: string;
  children: ReactNode[];
}

/** The page's markup as React elements: the <html> element, and what streams after it (the data scripts). */
export function markupToElements(html: string): ReactNode {
  const root: Frame = { tag: "#root", attrs: "", children: [] };
  const stack: Frame[] = [root];
  const token = /<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)|</gi;
  let key = 0;
  for (let m = token.exec(html); m; m = token.exec(html)) {
    const top = stack[stack.length - 1];
    if (m[1]) {
      // A closing tag: close up to the matching open element.
      const name = m[1].toLowerCase();
      const at = stack.map((f) => f.tag).lastIndexOf(name);
      if (at <= 0) continue;
      while (stack.length > at) {
        const frame = stack.pop()!;
        stack[stack.length - 1].children.push(createElement(frame.tag, props(frame.tag, frame.attrs, key++) as never, ...frame.children));
      }
    } else if (m[2]) {
      const name = m[2].toLowerCase();
      if (RAW.has(name) && !m[4]) {
        const end = html.toLowerCase().indexOf(`</${name}`, token.lastIndex);
        const inner = html.slice(token.lastIndex, end < 0 ? html.length : end);
        top.children.push(createElement(name, { ...props(name, m[3] ?? "", key++), dangerouslySetInnerHTML: { __html: inner } } as never));
        token.lastIndex = end < 0 ? html.length : html.indexOf(">", end) + 1;
      } else if (VOID.has(name) || m[4]) {
        top.children.push(createElement(name, props(name, m[3] ?? "", key++) as never));
      } else {
        stack.push({ tag: name, attrs: m[3] ?? "", children: [] });
      }
    } else if (m[5]) {
      top.children.push(decode(m[5]));
    }
  }
  while (stack.length > 1) {
    const frame = stack.pop()!;
    stack[stack.length - 1].children.push(createElement(frame.tag, props(frame.tag, frame.attrs, key++) as never, ...frame.children));
  }
  return createElement(Fragment, null, ...root.children.filter((c) => typeof c === "object"));
}

/** CPU ms per `renderToString` of the tree (this process's own CPU, user + system), after a warm-up. */
export function bareRenderMs(tree: ReactNode, rounds = 200, warmup = 50): { ms: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < warmup; i++) bytes = renderToString(tree as never).length;
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i++) renderToString(tree as never);
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000 / rounds, bytes };
}
