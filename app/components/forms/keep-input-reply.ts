import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { BUILDING_AFTER_FIELD, BUILDING_SEARCH_FIELD } from "~/lib/pickers";

/**
 * The answer to a picker's search or "More buildings" without JavaScript: the posted form as it was
 * (the user's input kept, no error shown), to render again with the matching buildings. `drop` names
 * further fields not to keep (the button that asked).
 */
export function keepInputReply(formData: FormData, drop: string[] = []): SubmissionResult<string[]> {
  const submission = parseWithZod(formData, { schema: z.object({}).passthrough() });
  const payload = submission.payload as Record<string, unknown>;
  for (const name of ["intent", BUILDING_SEARCH_FIELD, BUILDING_AFTER_FIELD, ...drop]) delete payload[name];
  return submission.reply();
}
