import type { OpenApiDocument, OpenApiOperation } from "./document.server";

/**
 * /api/docs: the OpenAPI document as one self-contained HTML page (decision 056), rendered on the
 * server: every operation with who may call it, its parameters, body and answers, the schemas printed as
 * JSON. No script and no asset from anywhere (the page works offline and under the app's CSP).
 */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

// Focusable: a long example scrolls inside its box, and a keyboard reaches its scroll too (WCAG 2.1.1).
const json = (value: unknown) => `<pre tabindex="0">${escape(JSON.stringify(value, null, 2))}</pre>`;

function operationHtml(path: string, method: string, op: OpenApiOperation): string {
  const anchor = op.operationId;
  const parameters = (op.parameters ?? []) as { name: string; in: string; description?: string; schema: unknown }[];
  const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content["application/json"]?.schema;
  const answers = Object.entries(op.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>);
  return `<section class="op" id="${escape(anchor)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary)}</p>
<p class="who">${escape(op.description)}</p>
${
  parameters.length
    ? `<h4>Parameters</h4><table tabindex="0"><thead><tr><th>Name</th><th>In</th><th>Schema</th><th>Description</th></tr></thead><tbody>${parameters
        .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td><code>${escape(JSON.stringify(p.schema))}</code></td><td>${escape(p.description ?? "")}</td></tr>`)
        .join("")}</tbody></table>`
    : ""
}
${body ? `<h4>Body (application/json)</h4>${json(body)}` : ""}
<h4>Answers</h4>
<dl>${answers
    .map(([status, answer]) => {
      const [type, media] = Object.entries(answer.content ?? {})[0] ?? [];
      const schema = media?.schema as { $ref?: string } | undefined;
      const shown = schema?.$ref ? `<p>${escape(type!)}: <a href="#schema-Error">Error</a></p>` : schema ? `<p>${escape(type!)}</p>${json(schema)}` : "";
      return `<dt>${escape(status)}</dt><dd>${escape(answer.description)}${shown}</dd>`;
    })
    .join("")}</dl>
</section>`;
}

export function renderDocsPage(doc: OpenApiDocument): string {
  const entries = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op: op! })));
  const byTag = new Map<string, typeof entries>();
  for (const entry of entries) {
    const tag = entry.op.tags[0] ?? "api";
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  const toc = [...byTag]
    .map(([tag, list]) => `<li>${escape(tag)}<ul>${list.map((e) => `<li><a href="#${escape(e.op.operationId)}">${e.method.toUpperCase()} ${escape(e.path)}</a></li>`).join("")}</ul></li>`)
    .join("");
  const body = [...byTag].map(([tag, list]) => `<h2>${escape(tag)}</h2>${list.map((e) => operationHtml(e.path, e.method, e.op)).join("")}`).join("");
  const errorSchema = (doc.components.schemas as Record<string, unknown>).Error;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#0b2545;color:#fff;padding:1.5rem 2rem}header a{color:#cbd5e1}
main{display:grid;grid-template-columns:minmax(14rem,20rem) minmax(0,1fr);gap:2rem;padding:1.5rem 2rem}main>*{min-width:0}h2,h3,code{overflow-wrap:anywhere}
nav{font-size:13px;position:sticky;top:1rem;align-self:start;max-height:95vh;overflow:auto}nav ul{padding-left:1rem}nav a{display:inline-block;padding:.3rem 0}
.op{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.m{display:inline-block;min-width:4.5rem;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:2px 6px}
.get{background:#2563eb}.post{background:#15803d}.put{background:#b45309}.patch{background:#7c3aed}.delete{background:#dc2626}
.who{color:#475569;font-size:13px}pre{background:#f1f5f9;padding:.75rem;border-radius:6px;overflow:auto;font-size:12px;max-height:24rem}
table{border-collapse:collapse;font-size:13px;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid #e2e8f0;padding:4px 8px;text-align:left}dt{font-weight:600}
@media(max-width:50rem){main{grid-template-columns:minmax(0,1fr);padding:1rem}nav{position:static;max-height:none}}
</style>
</head>
<body>
<header><h1>${escape(doc.info.title)} <small>v${escape(doc.info.version)}, OpenAPI ${escape(doc.openapi)}</small></h1>
<p>${escape(doc.info.description)}</p><p><a href="/api/openapi.json">openapi.json</a></p></header>
<main><nav aria-label="Operations"><ul>${toc}</ul></nav>
<div>${body}<h2 id="schema-Error">Error</h2>${json(errorSchema)}</div></main>
</body>
</html>`;
}
