import type { i18n as I18n } from "i18next";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
// Remix's <Form>, useSubmit and useMatches need a data router: render through react-router's static one.
import type { RouteObject } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";

/** Renders a route tree at `url` to HTML, with `i18n` as the translations. */
export async function renderRoutes(i18n: I18n, routes: RouteObject[], url = "/"): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("unexpected response");
  const element = (
    <I18nextProvider i18n={i18n}>
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
    </I18nextProvider>
  );
  // A lazy part (React.lazy) inside a Suspense boundary renders its fallback in a one-pass render. The
  // server's renderer waits for it (entry.server.tsx), so here a streaming render first waits until every
  // boundary is ready (which loads the lazy modules), then the static render sees them resolved.
  await new Promise<void>((resolve, reject) => {
    const stream = renderToPipeableStream(element, {
      onAllReady() {
        stream.abort();
        resolve();
      },
      onShellError: reject,
    });
  });
  return renderToStaticMarkup(element);
}

/** Renders one element as the page at `url`. */
export function renderInRouter(i18n: I18n, element: ReactElement, url = "/"): Promise<string> {
  return renderRoutes(i18n, [{ path: "*", element }], url);
}
