import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AccountSettingsForm } from "~/components/settings/account-settings-form";
import { EntitySettingsForm } from "~/components/settings/entity-settings-form";
import { ExplanatoryStickerForm } from "~/components/settings/explanatory-sticker-form";
import { PasswordDialog } from "~/components/settings/password-dialog";
import { DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Card, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TabLink, Tabs } from "~/components/ui/tabs";
import { localeByUserLanguage } from "~/i18n";
import { detectLocale, localeCookie } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { ForbiddenError, isDomainError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { canManageEntity } from "~/modules/entities/policy.server";
import { EntitySettingsFormSchema, StickerFormSchema } from "~/modules/entities/schema";
import type { FilesContext } from "~/modules/files/uploads.server";
import {
  getEntity,
  getExplanatorySticker,
  updateEntity,
  updateExplanatorySticker,
} from "~/modules/entities/service.server";
import { getAccountSettings, listNotificationBuildings } from "~/modules/users/queries.server";
import { AccountFormSchema, PasswordFormSchema } from "~/modules/users/schema";
import { changePassword, updateAccount } from "~/modules/users/service.server";
import { runtime } from "~/runtime.server";

/**
 * /settings: "Account Settings" for every signed-in user, "Entity Settings" (`?tab=entity`) for
 * facility managers and administrators; the update-password dialog at `?dialog=password`. Four
 * forms (told apart by `intent`), each a plain multipart post that works without JavaScript, each
 * calling one service verb.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

type Tab = "account" | "entity";
type Intent = "account" | "password" | "entity" | "sticker";

async function contextFor(user: AuthUser, request: Request): Promise<FilesContext> {
  const rt = await runtime();
  return {
    db: rt.database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
    files: rt.files,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const tab: Tab = new URL(request.url).searchParams.get("tab") === "entity" ? "entity" : "account";
  const manager = canManageEntity(user);
  // The entity tab is for managers and administrators only, like the manager-only screens.
  if (tab === "entity" && !manager) throw redirect("/forbidden");
  const ctx: ServiceContext = await contextFor(user, request);
  const maxBytes = (await runtime()).files.maxBytes;
  if (tab === "entity") {
    const [entity, sticker] = await Promise.all([getEntity(ctx, user.entityId), getExplanatorySticker(ctx, user.entityId)]);
    return { tab, canManageEntity: manager, maxBytes, entity, sticker: sticker.explanatorySticker, account: null, buildings: [] };
  }
  const [account, buildings] = await Promise.all([
    getAccountSettings(ctx.db, user.id, user.entityId),
    listNotificationBuildings(ctx.db, user.entityId),
  ]);
  if (!account) throw new Response("Not Found", { status: 404 });
  return { tab, canManageEntity: manager, maxBytes, entity: null, sticker: null, account, buildings };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const intent = formData.get("intent");

  switch (intent) {
    case "account": {
      const submission = parseWithZod(formData, { schema: AccountFormSchema });
      if (submission.status !== "success") return failed(intent, submission.reply());
      const { removePicture, ...fields } = submission.value;
      const picture = uploadedFile(formData, "newPicture");
      try {
        await updateAccount(ctx, {
          ...fields,
          updatePicture: Boolean(picture) || removePicture,
          newPicture: picture ? await toUpload(picture) : null,
        });
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      const headers = new Headers();
      headers.append("Set-Cookie", await toastHeader({ type: "success", key: "settings:toast.updated" }));
      // Keep the language after logout too (the user's own setting wins while signed in).
      headers.append("Set-Cookie", await localeCookie.serialize(localeByUserLanguage[fields.language]));
      return redirect("/settings", { headers });
    }
    case "password": {
      const hideFields = ["oldPassword", "newPassword", "repeatPassword"];
      const submission = parseWithZod(formData, { schema: PasswordFormSchema });
      if (submission.status !== "success") return failed(intent, submission.reply({ hideFields }));
      try {
        await changePassword(ctx, {
          userId: user.id,
          oldPassword: submission.value.oldPassword,
          newPassword: submission.value.newPassword,
          keepSessionId: user.sessionId,
        });
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply({ ...options, hideFields }), error);
      }
      return redirect("/settings", {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "settings:toast.passwordModified" }) },
      });
    }
    case "entity": {
      if (!canManageEntity(user)) throw redirect("/forbidden");
      const submission = parseWithZod(formData, { schema: EntitySettingsFormSchema });
      if (submission.status !== "success") return failed(intent, submission.reply());
      const { removeLogo, ...fields } = submission.value;
      const logo = uploadedFile(formData, "newLogo");
      try {
        await updateEntity(ctx, {
          ...fields,
          id: user.entityId,
          updateLogo: Boolean(logo) || removeLogo,
          newLogo: logo ? await toUpload(logo) : null,
        });
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect("/settings?tab=entity", {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "settings:toast.updated" }) },
      });
    }
    case "sticker": {
      if (!canManageEntity(user)) throw redirect("/forbidden");
      const submission = parseWithZod(formData, { schema: StickerFormSchema });
      if (submission.status !== "success") return failed(intent, submission.reply());
      const sticker = uploadedFile(formData, "newExplanatorySticker");
      // Nothing chosen and nothing to remove: nothing to do.
      if (sticker || submission.value.removeExplanatorySticker) {
        try {
          await updateExplanatorySticker(ctx, { id: user.entityId, newExplanatorySticker: sticker ? await toUpload(sticker) : null });
        } catch (error) {
          return serviceFailed(intent, (options) => submission.reply(options), error);
        }
      }
      return redirect("/settings?tab=entity", {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "settings:toast.updated" }) },
      });
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

interface ActionResult {
  intent: Intent;
  result: SubmissionResult<string[]>;
}

function failed(intent: Intent, result: SubmissionResult<string[]>, status = 400) {
  return data<ActionResult>({ intent, result }, { status });
}

type Reply = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>;

/** Maps a service error to the form: field errors beside their fields, anything else above the form. */
function serviceFailed(intent: Intent, reply: Reply, error: unknown) {
  if (error instanceof ForbiddenError) throw redirect("/forbidden");
  if (isDomainError(error)) {
    const fieldErrors: Record<string, string[]> = {};
    const formErrors: string[] = [];
    for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
      if (key === "_form") formErrors.push(...messages);
      // "a.0.b" (service paths) → "a[0].b" (conform names)
      else fieldErrors[key.replace(/\.(\d+)(?=\.|$)/g, "[$1]")] = messages;
    }
    if (!error.fieldErrors) formErrors.push(error.messageKey);
    return failed(intent, reply({ formErrors, fieldErrors }));
  }
  logger().error({ err: error, intent }, "settings: could not save");
  return failed(intent, reply({ formErrors: ["settings:errors.couldNotSave"] }), 500);
}

/** A chosen file of the form (an empty file input posts nothing). */
function uploadedFile(formData: FormData, name: string): File | null {
  const value = formData.get(name);
  return value instanceof File && (value.name !== "" || value.size > 0) ? value : null;
}

async function toUpload(file: File) {
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

const MAX_TEXT_PART = 256 * 1024;

/**
 * Reads the posted form. Multipart bodies are streamed: a file keeps at most `maxBytes + 1` bytes
 * (the service then answers "too large" beside the field, and every other field is kept), the rest is
 * drained; a text part over 256 KiB is refused.
 */
async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  const handler: UploadHandler = async ({ filename, contentType, data: stream }) => {
    const limit = typeof filename === "string" ? maxBytes + 1 : MAX_TEXT_PART;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream) {
      if (size < limit) chunks.push(chunk.subarray(0, limit - size));
      size += chunk.byteLength;
    }
    if (typeof filename === "string") {
      if (filename === "" && size === 0) return undefined;
      return new File([new Uint8Array(Buffer.concat(chunks))], filename, { type: contentType });
    }
    if (size > MAX_TEXT_PART) throw new Response("Payload Too Large", { status: 413 });
    return new TextDecoder().decode(Buffer.concat(chunks));
  };
  return unstable_parseMultipartFormData(request, handler);
}

export default function Settings() {
  const { t } = useTranslation("settings");
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const passwordDialog = useUrlDialog("password");
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);
  const maxSize = t("files.maxSize", { size: Math.round((loaderData.maxBytes / (1024 * 1024)) * 10) / 10 });

  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      {loaderData.tab === "account" ? (
        <PasswordDialog open={passwordDialog.open} closeTo={passwordDialog.closeTo} lastResult={resultFor("password")} />
      ) : null}
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <Tabs label={t("tabs.label")}>
        <TabLink to="/settings" active={loaderData.tab === "account"} preventScrollReset>
          {t("tabs.account")}
        </TabLink>
        {loaderData.canManageEntity ? (
          <TabLink to="/settings?tab=entity" active={loaderData.tab === "entity"} preventScrollReset>
            {t("tabs.entity")}
          </TabLink>
        ) : null}
      </Tabs>

      {loaderData.tab === "account" && loaderData.account ? (
        <>
          <AccountSettingsForm
            key={loaderData.account.updatedAt}
            account={loaderData.account}
            buildings={loaderData.buildings}
            maxSize={maxSize}
            lastResult={resultFor("account")}
          />
          <Card>
            <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="grid gap-1.5">
                <CardTitle as="h2">{t("account.security")}</CardTitle>
                <CardDescription>{t("account.securityDescription")}</CardDescription>
              </div>
              <DialogTrigger to={passwordDialog.openTo} variant="outline" className="w-full sm:w-auto">
                {t("account.updatePassword")}
              </DialogTrigger>
            </CardHeader>
          </Card>
        </>
      ) : null}

      {loaderData.tab === "entity" && loaderData.entity ? (
        <>
          <EntitySettingsForm key={loaderData.entity.updatedAt} entity={loaderData.entity} maxSize={maxSize} lastResult={resultFor("entity")} />
          <ExplanatoryStickerForm key={`sticker-${loaderData.sticker ?? "none"}`} sticker={loaderData.sticker} maxSize={maxSize} lastResult={resultFor("sticker")} />
        </>
      ) : null}
    </div>
  );
}
