import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { FilesContext } from "~/modules/files/uploads.server";
import { localeByUserLanguage } from "~/i18n";
import { detectLocale, getT } from "~/i18n.server";
import { isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";
import { serviceContext } from "./route-context.server";

/**
 * A signed-in user's printed page (the work order, the inspection report): read in the user's language as
 * the pages use it (their setting, else the language cookie or the browser's). `render` answers the PDF,
 * or null for an address it cannot read; that and any "not found" of the domain are a plain-text 404 saying
 * `notFoundKey` in that language.
 */
export async function userPdf(
  { request, context }: Pick<LoaderFunctionArgs, "request"> & { context: AppLoadContext },
  notFoundKey: string,
  render: (ctx: FilesContext) => Promise<Response | null> | Response | null,
): Promise<Response> {
  const user = await requireUser(request, context);
  const profile = context.auth.shell?.profile;
  const locale = await detectLocale(request, profile ? localeByUserLanguage[profile.language] : null);
  const ctx = { ...(await serviceContext({ request, context }, user)), locale };
  const notFound = () =>
    new Response(getT(locale)(notFoundKey), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  try {
    return (await render(ctx)) ?? notFound();
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return notFound();
    throw error;
  }
}
