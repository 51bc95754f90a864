// Placeholder until issue #12 lands this route (being written now).
import { data } from "@remix-run/node";
export const loader = () => {
  throw data(null, { status: 404 });
};
