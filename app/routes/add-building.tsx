import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingForm } from "~/components/facilities/building-form";
import { FormPage } from "~/components/forms/form-parts";
import { Alert } from "~/components/ui/alert";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { intParam } from "~/lib/list-query";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { listFacilityOptions } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { createBuilding } from "~/modules/facilities/service.server";
import { runtime } from "~/runtime.server";

/** /add-building (`?facilityId=` preselects the facility): on success back to the buildings list. */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function contextFor(user: AuthUser, request: Request): Promise<ServiceContext> {
  return {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const facilities = await listFacilityOptions(await contextFor(user, request));
  const wanted = intParam(new URL(request.url).searchParams, "facilityId");
  const facilityId = facilities.some((f) => f.id === wanted) ? wanted : facilities.length === 1 ? facilities[0].id : null;
  return { facilities, facilityId };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await contextFor(user, request);
  const submission = parseWithZod(await request.formData(), { schema: BuildingSchema });
  if (submission.status !== "success") return formFailed("create", submission.reply());
  try {
    await createBuilding(ctx, submission.value);
  } catch (error) {
    return serviceFailed("create", (options) => submission.reply(options), error);
  }
  return redirect("/facilities?tab=buildings", {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
}

export default function AddBuilding() {
  const { t } = useTranslation("facilities");
  const { facilities, facilityId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-building")} backTo="/facilities?tab=buildings" backLabel={t("building.back")}>
      {facilities.length === 0 ? (
        <Alert className="mb-6">
          <p>
            {t("building.noFacility")}{" "}
            <Link to="/add-facility" className="font-medium text-primary underline-offset-4 hover:underline">
              {t("facilities.add")}
            </Link>
          </p>
        </Alert>
      ) : null}
      <BuildingForm
        building={{ facilityId }}
        facilities={facilities}
        intent="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
      />
    </FormPage>
  );
}
