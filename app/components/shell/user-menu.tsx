import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { useDetailsMenu } from "./use-details-menu";

export interface ShellUser {
  name: string;
  surname: string;
  email: string;
  role: number;
  pictureFileId?: string | null;
}

export function initials(user: Pick<ShellUser, "name" | "surname">): string {
  return `${user.name.trim().charAt(0)}${user.surname.trim().charAt(0)}`.toUpperCase() || "?";
}

/** The user's picture or initials in a circle. */
export function Avatar({ user, className }: { user: ShellUser; className?: string }) {
  if (user.pictureFileId) {
    return <img src={`/files/${user.pictureFileId}`} alt="" className={cn("size-8 shrink-0 rounded-full object-cover", className)} />;
  }
  return (
    // Drawn, not written: a control's name is its visible text (WCAG 2.5.3 label in name).
    <span
      aria-hidden="true"
      data-initials={initials(user)}
      className={cn(
        "flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-foreground text-xs font-bold text-primary before:content-[attr(data-initials)]",
        className,
      )}
    />
  );
}

const itemClass = "shell-user-item"; // the stylesheet's .shell-user-item (app/styles/tailwind.css)

/**
 * The user menu: name and role (SPEC.md section 6 labels), Settings, and Logout as a POST form.
 * A native `<details>`, so it opens without JavaScript.
 */
export function UserMenu({ user }: { user: ShellUser }) {
  const { t } = useTranslation("shell");
  const ref = useDetailsMenu();
  const fullName = `${user.name} ${user.surname}`.trim();
  const role = t(`roles.${user.role}`);
  return (
    <details ref={ref} className="group relative" data-user-menu>
      {/* Named by its visible texts, name and role (WCAG 2.5.3 label in name), then what it is. */}
      <summary
        className="flex h-11 cursor-pointer list-none items-center gap-2 rounded-full py-1 pl-1 pr-1 text-primary-foreground transition-colors hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-foreground sm:h-10 sm:pr-2 [&::-webkit-details-marker]:hidden"
      >
        <Avatar user={user} />
        <span className="hidden max-w-40 text-left leading-tight md:grid">
          <span className="truncate text-sm font-semibold">{fullName}</span>
          <span className="truncate text-xs text-primary-muted-foreground">{role}</span>
        </span>
        {/* On a phone the name is not shown: said, not seen. */}
        <span className="sr-only md:hidden">
          {fullName} {role}
        </span>
        <span className="sr-only"> ({t("user.menu")})</span>
        <Icon name="chevronDown" className="hidden size-4 transition-transform group-open:rotate-180 sm:block" />
      </summary>
      <div className="absolute right-0 top-full z-50 mt-2 w-72 max-w-[calc(100vw-1.5rem)] rounded-lg border bg-card p-1.5 text-card-foreground shadow-xl">
        <div className="flex items-center gap-3 px-3 py-3">
          <Avatar user={user} className="size-10 bg-primary text-sm text-primary-foreground" />
          <div className="grid min-w-0 gap-0.5">
            <p className="truncate text-sm font-semibold">{fullName}</p>
            <p className="truncate text-xs text-muted-foreground">{user.email}</p>
            <p className="mt-1 w-fit rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary" data-role-label>
              {role}
            </p>
          </div>
        </div>
        <div className="my-1 h-px bg-border" />
        <Link to="/settings" className={itemClass}>
          <Icon name="settings" className="size-4 text-muted-foreground" />
          {t("user.settings")}
        </Link>
        <Link to="/notifications" className={itemClass}>
          <Icon name="bell" className="size-4 text-muted-foreground" />
          {t("user.notifications")}
        </Link>
        <div className="my-1 h-px bg-border" />
        <Form method="post" action="/logout">
          <button type="submit" className={cn(itemClass, "text-destructive hover:bg-destructive/10")}>
            <Icon name="logout" className="size-4" />
            {t("user.logout")}
          </button>
        </Form>
      </div>
    </details>
  );
}
