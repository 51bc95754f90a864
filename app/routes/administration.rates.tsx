import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { RATES_INTENT, RatesForm } from "~/components/time-costs/rates-form";
import { Card, CardContent } from "~/components/ui/card";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { getHourlyRates } from "~/modules/time-costs/queries.server";
import { HourlyRatesSchema } from "~/modules/time-costs/schema";
import { setHourlyRates } from "~/modules/time-costs/service.server";

const RATES = "/administration/rates";

/**
 * /administration/rates (issue 62): the entity's currency, its default hourly rate and each person's
 * own rate, in one plain form answered with a redirect and a toast, or with its errors and input kept.
 * Administrators only (the gate, the read and the verb).
 */
export const loader = screenLoader(async ({ ctx }) => ({ rates: await getHourlyRates(ctx) }));

export const action = screenAction({
  intents: {
    [RATES_INTENT]: formIntent({ schema: HourlyRatesSchema, redirectTo: RATES, toast: "timeCosts:rates.saved" }, (value, { ctx }) => setHourlyRates(ctx, value)),
  },
});

export default function AdministrationRates() {
  const { t } = useTranslation("timeCosts");
  const { rates } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="grid gap-1">
        <BackLink to="/administration">{t("rates.backToAdministration")}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-rates")}</h1>
        <p className="text-sm text-muted-foreground">{t("rates.intro")}</p>
      </div>
      <Card>
        <CardContent className="pt-6">
          <RatesForm rates={rates} lastResult={resultFor(RATES_INTENT)} />
        </CardContent>
      </Card>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
