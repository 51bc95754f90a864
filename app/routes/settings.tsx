import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useResultFor } from "~/components/forms/zod-form";
import { AccountSettingsForm, BUILDING_ACTION_FIELD, type NotificationBuildingsData } from "~/components/settings/account-settings-form";
import { EntitySettingsForm } from "~/components/settings/entity-settings-form";
import { ExplanatoryStickerForm } from "~/components/settings/explanatory-sticker-form";
import { PasswordDialog } from "~/components/settings/password-dialog";
import { DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Card, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TabLink, Tabs } from "~/components/ui/tabs";
import { localeByUserLanguage } from "~/i18n";
import { localeCookieHeader } from "~/i18n.server";
import { formFailed, serviceFailed, toUpload, uploadedFile } from "~/http/form-action.server";
import { allowedTo, formIntent, type IntentArgs, screenAction, screenLoader } from "~/http/screen.server";
import type { ServiceContext } from "~/core/context.server";
import { toastHeader } from "~/http/toast.server";
import { can } from "~/core/actor";
import { EntitySettingsFormSchema, StickerFormSchema } from "~/modules/entities/schema";
import { getEntity, getExplanatorySticker, updateEntity, updateExplanatorySticker } from "~/modules/entities/service.server";
import { getAccountSettings } from "~/modules/users/queries.server";
import { getBuildingOptions } from "~/modules/facilities/queries.server";
import { buildingPickerData, keepInputReply } from "~/http/pickers.server";
import { BUILDING_AFTER_FIELD } from "~/lib/pickers";
import { supportedTimeZones } from "~/lib/dates";
import { AccountFormSchema, PasswordFormSchema } from "~/modules/users/schema";
import { changePassword, updateAccount } from "~/modules/users/service.server";
import { CALENDAR_CREATE_INTENT, CALENDAR_RESET_INTENT, CalendarFeedCard } from "~/components/tasks/calendar-feed-card";
import { publicOrigin } from "~/http/public-url.server";
import { getCalendarToken, issueCalendarToken } from "~/modules/users/calendar-token.server";

/**
 * /settings: "Account Settings" for every signed-in user, "Entity Settings" (`?tab=entity`) for
 * facility managers and administrators; the update-password dialog at `?dialog=password`. Four
 * forms (told apart by `intent`), each a plain multipart post that works without JavaScript, each
 * calling one service verb; and the calendar feed's address (`intent=calendar`, `calendar-reset`).
 */
type Tab = "account" | "entity";
type Intent = "account" | "password" | "entity" | "sticker";

export const loader = screenLoader(async ({ ctx, url, user, request, context }) => {
  const tab: Tab = url.searchParams.get("tab") === "entity" ? "entity" : "account";
  const manager = can(ctx.actor, "update", "entity");
  // The entity tab is for managers and administrators only, like the manager-only screens.
  if (tab === "entity" && !manager) throw redirect("/forbidden");
  const maxBytes = ctx.files.maxBytes;
  if (tab === "entity") {
    const [entity, sticker] = await Promise.all([getEntity(ctx, user.entityId), getExplanatorySticker(ctx, user.entityId)]);
    return { tab, canManageEntity: manager, maxBytes, entity, timeZones: supportedTimeZones(), sticker: sticker.explanatorySticker, account: null, buildings: null, calendarUrl: null };
  }
  const account = await getAccountSettings(ctx.db, user.id, user.entityId);
  if (!account) throw new Response("Not Found", { status: 404 });
  const [buildings, calendarToken] = await Promise.all([notificationBuildings(ctx, url.searchParams, account.notificationSettings.buildingIds), getCalendarToken(ctx)]);
  // The person's task calendar feed (decision 051), once they asked for one.
  const calendarUrl = calendarToken ? `${publicOrigin({ request, context })}/calendar/${calendarToken}.ics` : null;
  return { tab, canManageEntity: manager, maxBytes, entity: null, timeZones: null, sticker: null, account, buildings, calendarUrl };
});

/**
 * The notification buildings' picker (decision 017: there can be thousands of buildings): the chosen
 * ones named, and one page of matches of its search.
 */
async function notificationBuildings(ctx: ServiceContext, params: URLSearchParams | FormData, chosenIds: number[]): Promise<NotificationBuildingsData> {
  const [picker, chosen] = await Promise.all([buildingPickerData(ctx, params, null), getBuildingOptions(ctx, chosenIds)]);
  return { chosen, search: picker.search };
}

const COULD_NOT_SAVE = "settings:errors.couldNotSave";

/** The account form (a multipart post: the picture), or its notification buildings' search without JavaScript. */
async function account({ ctx, formData, intent }: IntentArgs) {
  const buildingAction = formData.get(BUILDING_ACTION_FIELD);
  if (buildingAction === "find" || buildingAction === "more") {
    // The buildings picker without JavaScript: the form again, input kept, with the matching buildings.
    if (buildingAction === "find") formData.delete(BUILDING_AFTER_FIELD);
    const checked = formData.getAll("notificationSettings.buildingIds").map(Number);
    const buildings = await notificationBuildings(ctx, formData, checked);
    return data({ intent, result: keepInputReply(formData, [BUILDING_ACTION_FIELD]), revision: Date.now(), buildings });
  }
  const submission = parseWithZod(formData, { schema: AccountFormSchema });
  if (submission.status !== "success") return formFailed(intent, submission.reply());
  const { removePicture, ...fields } = submission.value;
  const picture = uploadedFile(formData, "newPicture");
  try {
    await updateAccount(ctx, {
      ...fields,
      updatePicture: Boolean(picture) || removePicture,
      newPicture: picture ? await toUpload(picture) : null,
    });
  } catch (error) {
    return serviceFailed(intent, (options) => submission.reply(options), error, { couldNotSave: COULD_NOT_SAVE });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await toastHeader({ type: "success", key: "settings:toast.updated" }));
  // Keep the language after logout too (the user's own setting wins while signed in).
  headers.append("Set-Cookie", await localeCookieHeader(localeByUserLanguage[fields.language]));
  return redirect("/settings", { headers });
}

/** The calendar feed's address: made (`calendar`) or replaced after the confirmation (`calendar-reset`). */
function calendarIntent(reset: boolean) {
  return async ({ ctx }: IntentArgs) => {
    await issueCalendarToken(ctx, { reset });
    return redirect("/settings", { headers: { "Set-Cookie": await toastHeader({ type: "success", key: reset ? "tasks:feed.resetDone" : "tasks:feed.created" }) } });
  };
}

export const action = screenAction({
  files: true,
  intents: {
    account,
    [CALENDAR_CREATE_INTENT]: calendarIntent(false),
    [CALENDAR_RESET_INTENT]: calendarIntent(true),
    password: formIntent(
      { schema: PasswordFormSchema, redirectTo: "/settings", toast: "settings:toast.passwordModified", hideFields: ["oldPassword", "newPassword", "repeatPassword"], couldNotSave: COULD_NOT_SAVE },
      ({ oldPassword, newPassword }, { ctx, user }) => changePassword(ctx, { userId: user.id, oldPassword, newPassword, keepSessionId: user.sessionId }),
    ),
    entity: allowedTo(
      "update",
      "entity",
      formIntent({ schema: EntitySettingsFormSchema, redirectTo: "/settings?tab=entity", toast: "settings:toast.updated", couldNotSave: COULD_NOT_SAVE }, async ({ removeLogo, ...fields }, { ctx, user, formData }) => {
        const logo = uploadedFile(formData, "newLogo");
        await updateEntity(ctx, { ...fields, id: user.entityId, updateLogo: Boolean(logo) || removeLogo, newLogo: logo ? await toUpload(logo) : null });
      }),
    ),
    sticker: allowedTo(
      "update",
      "entity",
      formIntent({ schema: StickerFormSchema, redirectTo: "/settings?tab=entity", toast: "settings:toast.updated", couldNotSave: COULD_NOT_SAVE }, async ({ removeExplanatorySticker }, { ctx, user, formData }) => {
        const sticker = uploadedFile(formData, "newExplanatorySticker");
        // Nothing chosen and nothing to remove: nothing to do.
        if (sticker || removeExplanatorySticker) await updateExplanatorySticker(ctx, { id: user.entityId, newExplanatorySticker: sticker ? await toUpload(sticker) : null });
      }),
    ),
  },
});

export default function Settings() {
  const { t } = useTranslation("settings");
  const loaderData = useLoaderData<typeof loader>();
  const passwordDialog = useUrlDialog("password");
  const resultFor = useResultFor<Intent>();
  // After a search of the buildings picker without JavaScript: its matches (and a fresh form).
  const picked = useActionData<typeof action>() as { revision?: number; buildings?: NotificationBuildingsData } | undefined;
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

      {loaderData.tab === "account" && loaderData.account && loaderData.buildings ? (
        <>
          <AccountSettingsForm
            key={`${loaderData.account.updatedAt}-${picked?.revision ?? 0}`}
            account={loaderData.account}
            buildings={picked?.buildings ?? loaderData.buildings}
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
          <CalendarFeedCard url={loaderData.calendarUrl} />
        </>
      ) : null}

      {loaderData.tab === "entity" && loaderData.entity ? (
        <>
          <EntitySettingsForm
            key={loaderData.entity.updatedAt}
            entity={loaderData.entity}
            timeZones={loaderData.timeZones ?? []}
            maxSize={maxSize}
            lastResult={resultFor("entity")}
          />
          <ExplanatoryStickerForm key={`sticker-${loaderData.sticker ?? "none"}`} sticker={loaderData.sticker} maxSize={maxSize} lastResult={resultFor("sticker")} />
        </>
      ) : null}
    </div>
  );
}
