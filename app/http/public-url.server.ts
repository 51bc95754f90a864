import type { AppLoadContext } from "@remix-run/node";

/**
 * The address occupiers reach the app at, for links that leave the browser (QR codes, stickers):
 * APP_URL when it is configured, else the origin of the request being served.
 */
export function publicOrigin({ request, context }: { request: Request; context: AppLoadContext }): string {
  const { config } = context.runtime;
  return config.appUrlConfigured ? new URL(config.APP_URL).origin : new URL(request.url).origin;
}
