import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLocale } from "~/i18n";
import { resources } from "~/i18n.server";

/** Serves one namespace of one language to the browser's i18next (JavaScript on). */
export function loader({ params }: LoaderFunctionArgs) {
  const { lng, ns } = params;
  const bundle = isLocale(lng) && ns ? resources[lng]?.[ns] : undefined;
  if (!bundle) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  return Response.json(bundle, { headers: { "Cache-Control": "public, max-age=300" } });
}
