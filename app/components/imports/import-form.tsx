import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import type { ImportFormAnswer } from "~/http/imports.server";
import { IMPORT_TYPE_LIST } from "~/modules/imports/types";
import { LineErrors } from "./line-errors";

/**
 * The import tab's form (a plain multipart post, JavaScript on or off): the type, the file, and two
 * buttons: check the file (nothing written) or import it. Below: the templates of every type, and the
 * answer: the lines ready, or every fault at once.
 */
export function ImportForm({ answer, inProgress, hasFacility, limit }: { answer: ImportFormAnswer | null; inProgress: boolean; hasFacility: boolean; limit: string }) {
  const { t } = useTranslation("imports");
  const busy = useNavigation().state === "submitting";
  const fileErrors = answer?.status === "invalid" && answer.file ? [t(answer.file.key, answer.file.params)] : null;
  return (
    <section className="grid gap-4" aria-labelledby="import-title">
      <h2 id="import-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("intro")}</p>
      {inProgress ? (
        <Alert>
          <AlertDescription>
            {t("inProgress")}{" "}
            <a href="/import-data" className="font-medium text-primary underline-offset-4 hover:underline">
              {t("refresh")}
            </a>
          </AlertDescription>
        </Alert>
      ) : null}

      <details className="rounded-lg border p-4">
        <summary className="cursor-pointer font-medium">{t("templates")}</summary>
        <p className="mt-2 text-sm text-muted-foreground">{t("templatesHint")}</p>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {IMPORT_TYPE_LIST.map((d) => (
            <li key={d.slug} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <span className="min-w-40 font-medium">{t(`types.${d.type}`)}</span>
              <a href={`/import-template/${d.slug}.xlsx`} download className="text-primary underline-offset-4 hover:underline">
                {t("downloadXlsx")}
                <span className="sr-only"> ({t(`types.${d.type}`)})</span>
              </a>
              <a href={`/import-template/${d.slug}.csv`} download className="text-primary underline-offset-4 hover:underline">
                {t("downloadCsv")}
                <span className="sr-only"> ({t(`types.${d.type}`)})</span>
              </a>
            </li>
          ))}
        </ul>
      </details>

      <Form method="post" encType="multipart/form-data" className="grid max-w-xl gap-4">
        <Field label={t("type")} htmlFor="import-type" required>
          <Select id="import-type" name="type" required defaultValue={answer?.type ?? ""} key={`type-${answer?.type ?? ""}`}>
            <option value="">{t("chooseType")}</option>
            {IMPORT_TYPE_LIST.map((d) => (
              <option key={d.type} value={d.type}>
                {t(`types.${d.type}`)}
              </option>
            ))}
          </Select>
        </Field>
        {!hasFacility ? <p className="text-sm text-muted-foreground">{t("facilityNeeded")}</p> : null}
        <Field label={t("file", { size: limit })} htmlFor="import-file" required errors={fileErrors}>
          <Input
            id="import-file"
            name="file"
            type="file"
            required
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            aria-invalid={fileErrors ? true : undefined}
            aria-describedby={fileErrors ? "import-file-error" : undefined}
          />
        </Field>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="check" variant="outline" disabled={busy}>
            {t("check")}
          </Button>
          <Button type="submit" name="intent" value="start" disabled={busy || inProgress}>
            {t("start")}
          </Button>
        </div>
      </Form>

      {answer?.status === "checked" ? (
        <Alert variant="success">
          <AlertDescription>
            {t(`types.${answer.type}`)}: {t("checked", { count: answer.total })}
          </AlertDescription>
        </Alert>
      ) : null}
      {answer?.status === "invalid" && answer.errors.length > 0 ? (
        <div className="grid gap-3">
          <Alert variant="destructive">
            <AlertTitle>{t("errorsTitle", { count: answer.errors.length })}</AlertTitle>
            <AlertDescription>{t("errorsHint")}</AlertDescription>
          </Alert>
          <LineErrors errors={answer.errors} caption={t("errorsTitle", { count: answer.errors.length })} />
        </div>
      ) : null}
    </section>
  );
}

