import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLocale } from "~/i18n";
import { localeBundles, localesVersion } from "~/i18n.server";

/**
 * Every namespace of one language for the browser's i18next (JavaScript on), in one request:
 * `/locales/fr-BE.json?v=<version>`. With the current version the answer may be cached for a year.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  const { lng } = params;
  const bundle = isLocale(lng) ? localeBundles.get(lng) : undefined;
  if (!bundle) return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  const current = new URL(request.url).searchParams.get("v") === localesVersion;
  return new Response(bundle, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
    },
  });
}
