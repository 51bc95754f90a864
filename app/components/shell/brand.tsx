import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";

export interface BrandEntity {
  name: string;
  logoFileId: string | null;
}

/** The entity's logo (or its initial) and name, linking home. Sits on the brand colour. */
export function Brand({ entity, className }: { entity: BrandEntity; className?: string }) {
  const { t } = useTranslation(["shell", "common"]);
  return (
    <Link
      to="/"
      className={cn(
        "flex min-w-0 items-center gap-3 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-foreground",
        className,
      )}
    >
      {entity.logoFileId ? (
        <img
          src={`/files/${entity.logoFileId}`}
          alt=""
          width={36}
          height={36}
          className="size-9 shrink-0 rounded-md bg-white object-contain p-0.5 shadow-sm"
        />
      ) : (
        // The initial is drawn, not written: the link's name is its visible text (WCAG 2.5.3 label in name).
        <span
          aria-hidden="true"
          data-initials={entity.name.trim().charAt(0).toUpperCase() || "C"}
          className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary-foreground text-base font-bold text-primary shadow-sm before:content-[attr(data-initials)]"
        />
      )}
      <span className="grid min-w-0 leading-tight">
        <span className="truncate text-[0.95rem] font-semibold">{entity.name}</span>
        <span className="truncate text-xs text-primary-muted-foreground">{t("common:app.name")}</span>
      </span>
      <span className="sr-only"> ({t("shell:home")})</span>
    </Link>
  );
}
