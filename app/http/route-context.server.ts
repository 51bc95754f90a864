import type { AppLoadContext } from "@remix-run/node";
import { type ServiceContext, userContext } from "~/core/context.server";
import { offlineWriteOf } from "~/core/offline-writes.server";
import { localeByUserLanguage } from "~/i18n";
import { detectLocale } from "~/i18n.server";
import type { AuthUser } from "~/modules/auth/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";

/**
 * The service context of a signed-in request (route loaders and actions): the runtime's services
 * from the load context (server.ts puts them there), the user's entity and role, the language of the
 * page (the person's setting, as the root's, else the request's), the request's id, and the id of a post
 * the service worker sends again (applied once, issue 64).
 */
export async function serviceContext(args: { request: Request; context: AppLoadContext }, user: AuthUser): Promise<FilesContext> {
  const { runtime, requestId } = args.context;
  const locale = await detectLocale(args.request, user.language === undefined ? null : (localeByUserLanguage[user.language] ?? null));
  const ctx: ServiceContext = userContext(runtime.services, user, { locale, requestId });
  return { ...ctx, files: runtime.files, offlineWrite: offlineWriteOf(args.request, user) };
}
