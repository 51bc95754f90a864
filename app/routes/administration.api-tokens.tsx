import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type ApiTokenItem, API_TOKENS_PAGE, CreateTokenForm, NewTokenSecret, RevokeConfirmation, TokensTable } from "~/components/api-tokens/api-tokens";
import { useResultFor } from "~/components/forms/zod-form";
import { Card, CardContent } from "~/components/ui/card";
import { can } from "~/core/actor";
import { ownHeaders, secretAnswer } from "~/http/answer-headers.server";
import { controlCharacterErrors, formFailed, redirectWithToast, serviceFailed } from "~/http/form-action.server";
import { allowedTo, screenAction, screenLoader } from "~/http/screen.server";
import { listApiTokens } from "~/modules/api-tokens/queries.server";
import { CreateApiTokenSchema, RevokeApiTokenSchema } from "~/modules/api-tokens/schema";
import { createApiToken, revokeApiToken } from "~/modules/api-tokens/service.server";
import { listFacilityOptions } from "~/modules/facilities/queries.server";

/**
 * /administration/api-tokens (issue 50, decision 056): the entity's API tokens with their role, reach,
 * last use and expiry. Administrators make a token (its secret shown once, on the answer to the post)
 * and revoke one after confirming (`?revoke=<id>`, a page section, so both work without JavaScript).
 * Facility managers see the list only; posting is for administrators (others go to /forbidden).
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const canManage = can(ctx.actor, "manage", "apiToken");
  const [tokens, facilities] = await Promise.all([listApiTokens(ctx), canManage ? listFacilityOptions(ctx) : Promise.resolve([])]);
  const revokeId = Number(url.searchParams.get("revoke"));
  const revoking = canManage ? (tokens.find((token) => token.id === revokeId && token.state !== "revoked") ?? null) : null;
  return { tokens, facilities, canManage, revoking };
});

/** The secret's `no-store` reaches the page and its `.data` answer. */
export const headers = ownHeaders;

export const action = screenAction({
  intents: {
    create: allowedTo("manage", "apiToken", async ({ ctx, formData }) => {
      const submission = parseWithZod(formData, { schema: CreateApiTokenSchema });
      const control = controlCharacterErrors(formData);
      if (control) return formFailed("create", submission.reply({ fieldErrors: control }));
      if (submission.status !== "success") return formFailed("create", submission.reply());
      try {
        const { token, secret } = await createApiToken(ctx, submission.value);
        // The secret travels once, in this answer, which nothing may keep.
        return secretAnswer({ intent: "create" as const, created: { id: token.id, name: token.name, secret }, result: submission.reply({ resetForm: true }) });
      } catch (error) {
        return serviceFailed("create", (errors) => submission.reply(errors), error);
      }
    }),
    revoke: allowedTo("manage", "apiToken", async ({ ctx, formData }) => {
      const parsed = RevokeApiTokenSchema.safeParse({ id: Number(formData.get("id")) });
      if (!parsed.success) throw new Response("Bad Request", { status: 400 });
      await revokeApiToken(ctx, parsed.data.id);
      return redirectWithToast(API_TOKENS_PAGE, "apiTokens:toast.revoked");
    }),
  },
});

export default function ApiTokens() {
  const { t } = useTranslation("apiTokens");
  const { tokens, facilities, canManage, revoking } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { created?: { name: string; secret: string } } | undefined;
  const resultFor = useResultFor();
  return (
    // One column no wider than the page (`minmax(0, 1fr)`): an `auto` column would grow to the tokens
    // table's full width on a phone, and the page would scroll sideways instead of the table in its box.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-api-tokens")}</h1>
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
      </div>
      {answer?.created ? <NewTokenSecret name={answer.created.name} secret={answer.created.secret} /> : null}
      {revoking ? <RevokeConfirmation token={revoking as ApiTokenItem} /> : null}
      <Card>
        <CardContent className="pt-4 sm:pt-6">
          <TokensTable tokens={tokens as ApiTokenItem[]} canManage={canManage} />
        </CardContent>
      </Card>
      {canManage ? (
        <section className="grid gap-3" aria-labelledby="new-token-title">
          <h2 id="new-token-title" className="text-lg font-semibold">
            {t("form.title")}
          </h2>
          <Card>
            <CardContent className="pt-4 sm:pt-6">
              <CreateTokenForm facilities={facilities} lastResult={resultFor("create")} />
            </CardContent>
          </Card>
        </section>
      ) : (
        <p className="text-sm text-muted-foreground">{t("readOnly")}</p>
      )}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
