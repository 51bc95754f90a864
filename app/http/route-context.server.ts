import type { AppLoadContext } from "@remix-run/node";
import { type ServiceContext, userContext } from "~/core/context.server";
import { offlineWriteOf } from "~/core/offline-writes.server";
import { detectLocale } from "~/i18n.server";
import { OFFLINE_WRITE_HEADER } from "~/lib/offline-rules";
import type { AuthUser } from "~/modules/auth/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";

/**
 * The service context of a signed-in request (route loaders and actions): the runtime's services
 * from the load context (server.ts puts them there), the user's entity and role, the request's
 * language and id, and the id of a post the service worker sends again (applied once, issue 64).
 */
export async function serviceContext(args: { request: Request; context: AppLoadContext }, user: AuthUser): Promise<FilesContext> {
  const { runtime, requestId } = args.context;
  const ctx: ServiceContext = userContext(runtime.services, user, { locale: await detectLocale(args.request), requestId });
  return { ...ctx, files: runtime.files, offlineWrite: offlineWriteOf(args.request, user, OFFLINE_WRITE_HEADER) };
}
