import { redirect } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CameraScanner } from "~/components/scan/camera-scanner";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { screenLoader } from "~/http/screen.server";
import { findScannedPlace } from "~/modules/rooms/queries.server";

/** Longer text than any sticker's address is not a code (and is not looked up). */
const MAX_LENGTH = 500;

/**
 * /scan, for every signed-in user (issue 64): a sticker's code, read by the camera or typed (`?code=`, a
 * plain GET form that works without JavaScript), opens the staff page of its room or equipment item. The
 * server alone decides, within the person's entity and reach; a code it refuses stays here with the reason,
 * the same for an unknown code and another entity's. Only the room's or item's own address is ever
 * followed, never one typed in.
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const code = url.searchParams.get("code") ?? "";
  if (!code.trim()) return { code, error: null };
  const found = code.length > MAX_LENGTH ? "notACode" : await findScannedPlace(ctx, code);
  // What was typed comes back to the field, as much of it as the field takes.
  if (found === "notACode" || found === "notFound") return { code: code.slice(0, MAX_LENGTH), error: found };
  throw redirect(found.kind === "room" ? `/view-room/${found.id}` : `/view-equipment/${found.id}`);
});

export default function Scan() {
  const { t } = useTranslation("shell");
  const { code, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const describedBy = [fieldDescriptionId("scan-code"), error ? "scan-error" : null].filter(Boolean).join(" ");

  return (
    <div className="grid max-w-2xl gap-6">
      <header className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t("scan.title")}</h1>
        <p className="text-sm text-muted-foreground">{t("scan.intro")}</p>
      </header>

      {error ? (
        <Alert variant="destructive" id="scan-error" data-scan-error>
          {t(`scan.errors.${error}`)}
        </Alert>
      ) : null}

      {/* Remounted on each navigation: a refused code leaves the camera ready to start again. */}
      <CameraScanner key={location.key} onCode={(text) => navigate(`/scan?code=${encodeURIComponent(text)}`)} />

      <Form method="get" action="/scan" className="grid gap-4 rounded-xl border bg-card p-5 shadow-sm">
        <Field label={t("scan.codeLabel")} htmlFor="scan-code" description={t("scan.codeHint")}>
          <Input
            key={code}
            id="scan-code"
            name="code"
            defaultValue={code}
            required
            maxLength={MAX_LENGTH}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </Field>
        <div>
          <Button type="submit">{t("scan.submit")}</Button>
        </div>
      </Form>
    </div>
  );
}
