import { runtime } from "~/runtime.server";

/**
 * The address occupiers reach the app at, for links that leave the browser (QR codes, stickers):
 * APP_URL when it is configured, else the origin of the request being served.
 */
export async function publicOrigin(request: Request): Promise<string> {
  const { config } = await runtime();
  return config.appUrlConfigured ? new URL(config.APP_URL).origin : new URL(request.url).origin;
}
