import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/core/context.server";
import type { AuthUser } from "~/modules/auth/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { runtime } from "~/runtime.server";

/** The service context of a signed-in request (route loaders and actions): database, entity, actor, language. */
export async function serviceContext(request: Request, user: AuthUser): Promise<ServiceContext> {
  return {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
}

/** The service context plus the file store, for verbs that take uploads. */
export async function filesContext(request: Request, user: AuthUser): Promise<FilesContext> {
  return { ...(await serviceContext(request, user)), files: (await runtime()).files };
}
