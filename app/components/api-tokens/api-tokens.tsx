import { getFormProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxListField } from "~/components/forms/checkbox-list-field";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { ROLES_OFFERED } from "~/core/actor";
import { Role } from "~/db/enums";
import { useDates } from "~/lib/use-dates";
import { cn } from "~/lib/utils";
import { TOKEN_LIFETIMES } from "~/modules/api-tokens/constants";
import { Options } from "~/components/ui/options";
import type { ApiTokenView } from "~/modules/api-tokens/queries.server";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateToken = zodValidator(() => import("~/modules/api-tokens/schema").then((m) => m.CreateApiTokenSchema));

export const API_TOKENS_PAGE = "/administration/api-tokens";

/** One token of the list (the loader's `ApiTokenView`, as JSON). */
/** One token as the list shows it. */
export type ApiTokenItem = ApiTokenView;

/** The secret of the token just made: shown once, with how to use it. */
export function NewTokenSecret({ name, secret }: { name: string; secret: string }) {
  const { t } = useTranslation("apiTokens");
  return (
    <Alert role="status" className="grid grid-cols-[minmax(0,1fr)] gap-2" data-testid="new-token">
      {/* A long name without spaces wraps anywhere rather than widen the page. */}
      <p className="font-medium [overflow-wrap:anywhere]">{t("created.title", { name })}</p>
      <p className="text-sm">{t("created.once")}</p>
      <label className="grid gap-1 text-sm">
        <span>{t("created.secret")}</span>
        <Input readOnly value={secret} name="secret" aria-label={t("created.secret")} className="font-mono" onFocus={(e) => e.currentTarget.select()} />
      </label>
      <p className="text-sm text-muted-foreground">{t("created.usage")}</p>
      <code className="block rounded bg-muted p-2 text-xs break-all">Authorization: Bearer {secret}</code>
    </Alert>
  );
}

/** The form that makes a token: name, role, facilities (required below the administrator's role), lifetime. */
export function CreateTokenForm({ facilities, lastResult }: { facilities: { id: number; name: string }[]; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("apiTokens");
  const text = useErrorText(["apiTokens"]);
  const [form, fields] = useZodForm(validateToken, {
    id: "api-token",
    lastResult,
    defaultValue: { name: "", role: String(Role.TECHNICIAN), facilityIds: [], expiresInDays: "90" },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="create" />
      <FormErrors id={form.errorId} errors={form.errors} ns={["apiTokens"]} />
      <Field label={t("form.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} description={t("form.nameHint")} required>
        <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("form.role")} htmlFor={fields.role.id} errors={text(fields.role.errors)} required>
          <Select {...getSelectProps(fields.role)}>
            <Options values={ROLES_OFFERED} label={(role) => t(`shell:roles.${role}`)} />
          </Select>
        </Field>
        <Field label={t("form.expiry")} htmlFor={fields.expiresInDays.id} errors={text(fields.expiresInDays.errors)} required>
          <Select {...getSelectProps(fields.expiresInDays)}>
            <Options values={TOKEN_LIFETIMES} label={(days) => t("form.days", { count: days })} />
          </Select>
        </Field>
      </div>
      <CheckboxListField title={t("form.facilities")} description={t("form.facilitiesHint")} field={fields.facilityIds} options={facilities} />
      <div className="flex justify-end border-t pt-4">
        <SubmitButton intent="create">{t("form.submit")}</SubmitButton>
      </div>
    </Form>
  );
}

/** The entity's tokens with their role, reach, last use and expiry; administrators may revoke the live ones. */
export function TokensTable({ tokens, canManage }: { tokens: ApiTokenItem[]; canManage: boolean }) {
  const { t } = useTranslation("apiTokens");
  const dates = useDates();
  if (!tokens.length) return <p className="text-sm text-muted-foreground">{t("list.empty")}</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("list.name")}</TableHead>
          <TableHead>{t("list.role")}</TableHead>
          <TableHead>{t("list.reach")}</TableHead>
          <TableHead>{t("list.lastUsed")}</TableHead>
          <TableHead>{t("list.expires")}</TableHead>
          <TableHead>{t("list.state")}</TableHead>
          {canManage ? <TableHead className="sr-only">{t("list.actions")}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.map((token) => (
          <TableRow key={token.id} data-testid={`token-${token.id}`}>
            <TableCell>
              <div className="min-w-40 font-medium [overflow-wrap:anywhere]">{token.name}</div>
              <div className="font-mono text-xs text-muted-foreground">{token.prefix}…</div>
              <div className="text-xs text-muted-foreground">{t("list.madeBy", { name: token.createdBy, date: dates.date(token.createdAt) })}</div>
            </TableCell>
            <TableCell>{t(`shell:roles.${token.role}`)}</TableCell>
            <TableCell>{token.facilities.length ? token.facilities.map((f) => f.name).join(", ") : t("list.wholeEntity")}</TableCell>
            <TableCell>{token.lastUsedAt ? dates.dateTime(token.lastUsedAt) : t("list.never")}</TableCell>
            <TableCell>{dates.date(token.expiresAt)}</TableCell>
            <TableCell>
              <Badge variant={token.state === "active" ? "default" : "secondary"}>{t(`state.${token.state}`)}</Badge>
            </TableCell>
            {canManage ? (
              <TableCell className="text-right">
                {token.state === "revoked" ? null : (
                  <Link to={`?revoke=${token.id}`} className={cn(buttonVariants({ variant: "outline", size: "sm" }))} aria-label={t("list.revokeNamed", { name: token.name })}>
                    {t("list.revoke")}
                  </Link>
                )}
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Revoking one token, confirmed: a page section (`?revoke=<id>`), so it works without JavaScript. */
export function RevokeConfirmation({ token }: { token: ApiTokenItem }) {
  const { t } = useTranslation("apiTokens");
  return (
    <Card role="alertdialog" aria-labelledby="revoke-title" className="border-destructive">
      <CardContent className="grid gap-3 pt-4 sm:pt-6">
        <h2 id="revoke-title" className="text-lg font-semibold [overflow-wrap:anywhere]">
          {t("revoke.title", { name: token.name })}
        </h2>
        <p className="text-sm">{t("revoke.body")}</p>
        <Form method="post" action={API_TOKENS_PAGE} className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={API_TOKENS_PAGE} className={buttonVariants({ variant: "outline" })}>
            {t("common:actions.cancel")}
          </Link>
          <input type="hidden" name="id" value={token.id} />
          <SubmitButton intent="revoke" postsIntent>
            {t("revoke.confirm")}
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
