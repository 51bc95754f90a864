import { data } from "@remix-run/node";
import { StatusPage } from "~/components/shell/status-page";

/** The catch-all page: any address no route matches answers 404 with this page. */
export function loader() {
  return data({}, { status: 404 });
}

export default function NotFound() {
  return <StatusPage status={404} texts="notFound" />;
}
