import type { LoaderFunctionArgs } from "@remix-run/node";
import { assigneeOptions } from "~/http/incident-view.server";

/**
 * GET /incident/{id}/assignee-options?q=&page=: one JSON page of the users the incident may be
 * assigned to (those who reach its location), `{ items: [{ id, name, role }], total, page, size }`;
 * the assign dialog's search uses it when JavaScript runs. An incident out of reach is 404.
 */
export const loader = (args: LoaderFunctionArgs) => assigneeOptions(args);
