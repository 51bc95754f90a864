import { eq } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { entities } from "~/db/schema";
import { isDomainError } from "~/lib/errors";
import { ACCEPTED } from "~/modules/files/sniff";
import { type FileStore, readStoredFile } from "~/modules/files/storage.server";
import { reportPlaceNotFound, resolveReportIdentifier } from "./place.server";

/**
 * The entity logo shown on the public report page (/report/{identifier}/logo): read by the identifier
 * alone, like the page itself. An unknown or archived identifier, or an entity without a logo, is "not
 * found", saying nothing of any entity.
 */
export async function getReportLogo(
  services: Pick<ServiceContext, "db"> & { files: FileStore },
  code: string,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const resolved = await resolveReportIdentifier(services.db, code);
  if (!resolved) throw reportPlaceNotFound();
  const [entity] = await services.db.select({ logoFileId: entities.logoFileId }).from(entities).where(eq(entities.id, resolved.entityId));
  if (!entity?.logoFileId) throw reportPlaceNotFound();
  const ctx: ServiceContext = { db: services.db, entityId: resolved.entityId, actor: null, locale: "en", timeZone: resolved.timeZone };
  try {
    const { file, bytes } = await readStoredFile(ctx, services.files, entity.logoFileId);
    // Only the raster types a logo may have: nothing that could run in the page's origin.
    if (!ACCEPTED.logo.includes(file.mimeType)) throw reportPlaceNotFound();
    return { bytes, mimeType: file.mimeType };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw reportPlaceNotFound();
    throw error;
  }
}
