import { apiRoute, jsonError } from "~/http/api.server";
import { getT } from "~/i18n.server";

/** Any other /api address: 401 without a valid token, else 404 as JSON. */
const notFound = apiRoute(({ locale }) => jsonError(404, "NOT_FOUND", getT(locale)("errors.notFound.generic")));
export const loader = notFound;
export const action = notFound;
