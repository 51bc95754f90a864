import { z } from "zod";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { ForbiddenError, ValidationError } from "~/lib/errors";
import { REQUIRED } from "~/lib/schema-helpers";
import { parseInput } from "~/lib/validation";
import { DescriptionSchema, TitleSchema } from "./schema";
import { type IncidentChange, updateIncidentDescription, updateIncidentTitle } from "./service.server";

/**
 * `PATCH /api/incidents/{id}`: the title and/or the description in one call, all or
 * nothing. Each field goes through its own verb (events 7 and 8), both in one transaction; both fields
 * are checked before anything is written, so their errors come back together. A body with neither is
 * 400 NOTHING_TO_CHANGE.
 */
export interface PatchIncidentInput {
  title?: unknown;
  description?: unknown;
}

export async function updateIncidentFields(ctx: ServiceContext, id: number, rawInput: Input<PatchIncidentInput>): Promise<IncidentChange> {
  if (!ctx.actor) throw new ForbiddenError();
  const raw = await resolveInput(rawInput);
  const body: PatchIncidentInput = raw && typeof raw === "object" ? raw : {};
  const has = { title: body.title !== undefined, description: body.description !== undefined };
  if (!has.title && !has.description) {
    throw new ValidationError({ title: [REQUIRED], description: [REQUIRED] }, "errors.validation", "NOTHING_TO_CHANGE");
  }
  const schema = z.object({
    ...(has.title ? { title: TitleSchema.shape.title } : {}),
    ...(has.description ? { description: DescriptionSchema.shape.description } : {}),
  });
  const parsed = parseInput(schema, body) as { title?: string; description?: string | null };
  return withTx(ctx, async (tx) => {
    let result: IncidentChange | null = null;
    if (has.title) result = await updateIncidentTitle(tx, id, { title: parsed.title! });
    if (has.description) result = await updateIncidentDescription(tx, id, { description: parsed.description ?? null });
    return result!;
  });
}
