import { data } from "@remix-run/node";
import { StatusPage } from "~/components/shell/status-page";

export function loader() {
  return data({}, { status: 403 });
}

export default function Forbidden() {
  return <StatusPage status={403} texts="forbidden" />;
}
