import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A message that names what a form needs first ("There is no room type yet: add a room type first."),
 * followed by a link to the screen that adds it.
 */
export function MissingHint({ message, to, label }: { message: ReactNode; to: string; label: ReactNode }) {
  return (
    <>
      {message}{" "}
      <Link to={to} className="font-medium text-primary underline-offset-4 hover:underline">
        {label}
      </Link>
    </>
  );
}
