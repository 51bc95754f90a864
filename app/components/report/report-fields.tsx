import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Field, fieldControlProps, fieldErrorId } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { Options } from "~/components/ui/options";

/**
 * The report form's fields, shared by the occupier's page and the staff's dialog on the
 * room view: the chosen type's checklist questions, the description, photos, the optional email and
 * priority. Plain controls: the page that shows them runs no script. Errors are i18n keys by field
 * name, from the action (app/http/report-form.server.ts).
 */
export interface ReportTypeView {
  id: number;
  name: string;
  defaultPriority: number | null;
  reporterMayChangePriority: boolean;
  checklist: { position: number; question: string; tutorialLink: string | null; message: string | null; contentType: number }[];
}

export interface ReportFieldValues {
  description: string;
  email: string;
  priority: string;
  answers: Record<string, string>;
}

export const REPORT_CONTENT = { yesNo: 0, text: 1, number: 2, photo: 3 } as const;

/** Only web addresses are followed (a link typed as `javascript:` is shown as text). */
export const isWebUrl = (url: string | null | undefined): url is string => typeof url === "string" && /^https?:\/\//i.test(url.trim());

/** Translates an error key: namespaced keys as they are, bare ones from `common`. */
export function useErrorMessages() {
  const { t } = useTranslation("report");
  return (keys: string[] | undefined) => (keys ?? []).map((key) => (key.includes(":") ? t(key) : t(key, { ns: "common" })));
}

/** A report form's errors above its fields: the form's own, or "check the fields below" when only fields have errors. */
export function ReportFormErrors({ errors }: { errors: string[] }) {
  const { t } = useTranslation("report");
  const messages = useErrorMessages();
  return <Alert variant="destructive">{errors.length ? messages(errors).map((m) => <p key={m}>{m}</p>) : <p>{t("form.fix")}</p>}</Alert>;
}

export function ReportFields({
  type,
  values,
  errors,
  photosLost,
  withEmail,
  idPrefix = "report",
}: {
  type: ReportTypeView;
  values?: Partial<ReportFieldValues>;
  errors?: Record<string, string[]>;
  photosLost?: boolean;
  withEmail: boolean;
  idPrefix?: string;
}) {
  const { t } = useTranslation("report");
  const messages = useErrorMessages();
  const err = (name: string) => messages(errors?.[name]);
  const id = (name: string) => `${idPrefix}-${name.replace(/\./g, "-")}`;
  const answers = values?.answers ?? {};
  const photoQuestions = type.checklist.filter((q) => q.contentType === REPORT_CONTENT.photo);

  return (
    <div className="grid gap-5">
      <input type="hidden" name="incidentTypeId" value={type.id} />
      {err("incidentTypeId").length ? (
        <Alert variant="destructive">
          {err("incidentTypeId").map((m) => (
            <p key={m}>{m}</p>
          ))}
        </Alert>
      ) : null}

      {type.checklist.length ? (
        <fieldset className="grid gap-4 rounded-lg border p-4">
          <legend className="px-1 text-base font-semibold">{t("form.checklist")}</legend>
          {type.checklist.map((q) => (
            <ChecklistQuestion key={q.position} question={q} id={id(`answers.${q.position}`)} value={answers[String(q.position)] ?? ""} errors={err(`answers.${q.position}`)} />
          ))}
        </fieldset>
      ) : null}

      <Field label={t("form.description")} htmlFor={id("description")} required errors={err("description")} description={t("form.descriptionHint")}>
        <Textarea
          {...fieldControlProps(id("description"), { errors: err("description"), description: true })}
          name="description"
          required
          maxLength={2000}
          rows={4}
          defaultValue={values?.description ?? ""}
        />
      </Field>

      <Field
        label={t("form.photos")}
        htmlFor={id("photos")}
        errors={[...(photosLost ? [t("form.photosAgain")] : []), ...err("photos")]}
        description={photoQuestions.length ? `${t("form.photosHint")} ${t("form.photosForQuestions")}` : t("form.photosHint")}
      >
        <Input
          {...fieldControlProps(id("photos"), { errors: photosLost ? ["again"] : err("photos"), description: true })}
          type="file"
          name="photos"
          accept="image/*"
          capture="environment"
          multiple
          className="h-auto py-2"
        />
      </Field>

      {withEmail ? (
        <Field label={t("form.email")} htmlFor={id("email")} errors={err("email")} description={t("form.emailHint")}>
          <Input
            {...fieldControlProps(id("email"), { errors: err("email"), description: true })}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            defaultValue={values?.email ?? ""}
          />
        </Field>
      ) : null}

      {type.reporterMayChangePriority ? (
        <Field label={t("form.priority")} htmlFor={id("priority")} errors={err("priority")}>
          <Select
            {...fieldControlProps(id("priority"), { errors: err("priority") })}
            name="priority"
            defaultValue={values?.priority || (type.defaultPriority === null ? "" : String(type.defaultPriority))}
          >
            {type.defaultPriority === null ? <option value="">{t("incidents:priority.none")}</option> : null}
            <Options values={[0, 1, 2, 3]} label={(p) => t(`incidents:priority.${p}`)} />
          </Select>
        </Field>
      ) : null}
    </div>
  );
}

function ChecklistQuestion({
  question: q,
  id,
  value,
  errors,
}: {
  question: ReportTypeView["checklist"][number];
  id: string;
  value: string;
  errors: string[];
}) {
  const { t } = useTranslation("report");
  const name = `answers.${q.position}`;
  const extra = (
    <>
      {q.message ? <p className="text-sm text-muted-foreground">{q.message}</p> : null}
      {isWebUrl(q.tutorialLink) ? (
        <a href={q.tutorialLink} rel="noopener noreferrer" className="inline-flex min-h-6 w-fit items-center text-sm font-medium underline underline-offset-4">
          {t("form.tutorial")}
        </a>
      ) : null}
    </>
  );
  const errorText = errors.length ? (
    <div id={fieldErrorId(id)} className="grid gap-1 text-sm font-medium text-destructive">
      {errors.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  ) : null;

  if (q.contentType === REPORT_CONTENT.yesNo) {
    return (
      <fieldset className="grid gap-2" aria-describedby={errors.length ? fieldErrorId(id) : undefined}>
        <legend className="mb-1 text-sm font-medium">{q.question}</legend>
        {extra}
        <div className="flex gap-3">
          {(["yes", "no"] as const).map((answer) => (
            <label key={answer} className="flex min-h-11 flex-1 cursor-pointer items-center gap-2 rounded-md border px-3 has-[:checked]:border-primary has-[:checked]:bg-primary/10">
              <input type="radio" name={name} value={answer} defaultChecked={value === answer} className="size-5 accent-primary" />
              <span className="text-sm font-medium">{t(`form.${answer}`)}</span>
            </label>
          ))}
        </div>
        {errorText}
      </fieldset>
    );
  }
  if (q.contentType === REPORT_CONTENT.photo) {
    return (
      <div className="grid gap-1">
        <p className="text-sm font-medium">{q.question}</p>
        {extra}
        <p className="text-sm text-muted-foreground">{t("form.photoQuestion")}</p>
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {q.question}
      </label>
      {extra}
      <Input
        id={id}
        name={name}
        type="text"
        inputMode={q.contentType === REPORT_CONTENT.number ? "decimal" : undefined}
        maxLength={500}
        defaultValue={value}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={errors.length ? fieldErrorId(id) : undefined}
      />
      {errorText}
    </div>
  );
}
