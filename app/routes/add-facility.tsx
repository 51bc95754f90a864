import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FacilityForm } from "~/components/facilities/facility-form";
import { FormPage } from "~/components/forms/form-parts";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { createFacility } from "~/modules/facilities/service.server";
import { runtime } from "~/runtime.server";

/** /add-facility: name and description; on success back to the facilities list. */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx: ServiceContext = {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
  const submission = parseWithZod(await request.formData(), { schema: FacilitySchema });
  if (submission.status !== "success") return formFailed("create", submission.reply());
  try {
    await createFacility(ctx, submission.value);
  } catch (error) {
    return serviceFailed("create", (options) => submission.reply(options), error);
  }
  return redirect("/facilities", {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
}

export default function AddFacility() {
  const { t } = useTranslation("facilities");
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-facility")} backTo="/facilities" backLabel={t("facility.back")}>
      <FacilityForm intent="create" submitLabel={t("common:actions.add")} lastResult={actionData?.result} />
    </FormPage>
  );
}
