import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm } from "~/components/facilities/building-form";
import { ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { NotFoundError } from "~/lib/errors";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getBuilding, listFacilityOptions } from "~/modules/facilities/queries.server";
import { ArchiveSchema, BuildingSchema } from "~/modules/facilities/schema";
import { archiveBuilding, updateBuilding } from "~/modules/facilities/service.server";
import { runtime } from "~/runtime.server";

/**
 * /update-building/{id}: the building form (`intent=update`) and the archive confirmation at
 * `?dialog=archive` (`intent=archive`). An unknown id, or another entity's, is a 404 page.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function setup(request: Request, context: LoaderFunctionArgs["context"], idParam: string | undefined) {
  const user = await requireUser(request, context);
  const id = idParam && /^\d{1,9}$/.test(idParam) ? Number(idParam) : null;
  if (!id) throw new Response("Not Found", { status: 404 });
  const ctx: ServiceContext = {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
  return { ctx, id };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  try {
    const [building, facilities] = await Promise.all([getBuilding(ctx, id), listFacilityOptions(ctx)]);
    return { building, facilities };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  const formData = await request.formData();
  const intent = formData.get("intent");
  switch (intent) {
    case "update": {
      const submission = parseWithZod(formData, { schema: BuildingSchema });
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      try {
        await updateBuilding(ctx, id, submission.value);
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect("/facilities?tab=buildings", {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.updated" }) },
      });
    }
    case "archive": {
      const submission = parseWithZod(formData, { schema: ArchiveSchema });
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      try {
        await archiveBuilding(ctx, id, submission.value);
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect("/facilities?tab=buildings", {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.archived" }) },
      });
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateBuilding() {
  const { t } = useTranslation("facilities");
  const { building, facilities } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <>
      <ArchiveDialog name={building.name} details={t("building.archiveDetails")} lastResult={resultFor("archive")} />
      <FormPage
        title={t("common:screens.update-building")}
        subtitle={t("building.shortId", { shortId: building.shortId })}
        backTo="/facilities?tab=buildings"
        backLabel={t("building.back")}
        actions={<ArchiveTrigger>{t("building.archive")}</ArchiveTrigger>}
      >
        <BuildingForm
          building={building}
          facilities={facilities}
          intent="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}
