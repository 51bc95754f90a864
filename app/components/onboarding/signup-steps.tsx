import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";

export type SignupStep = "account" | "entity";
const STEPS: SignupStep[] = ["account", "entity"];

/** "Step 1 of 2": where the visitor is in the sign-up. */
export function SignupSteps({ current }: { current: SignupStep }) {
  const { t } = useTranslation("onboarding");
  const index = STEPS.indexOf(current);
  return (
    <nav aria-label={t("signup.stepOf", { current: index + 1, total: STEPS.length })} className="mb-6 grid gap-2">
      <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        {t("signup.stepOf", { current: index + 1, total: STEPS.length })}
      </p>
      <ol className="grid grid-cols-2 gap-2">
        {STEPS.map((step, i) => (
          <li
            key={step}
            aria-current={i === index ? "step" : undefined}
            className={cn(
              "flex items-center gap-2 border-t-4 pt-2 text-sm",
              i <= index ? "border-primary text-foreground" : "border-muted-foreground/25 text-muted-foreground",
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                i <= index ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
              )}
            >
              {i + 1}
            </span>
            <span className={cn(i === index && "font-semibold")}>{t(`signup.steps.${step}`)}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
