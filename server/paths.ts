/**
 * The kind of route a request goes to, decided from its path the way Remix matches it: case does
 * not matter, percent-encoding is decoded, repeated and trailing slashes are ignored, and the
 * single-fetch suffix (`/login.data`, `/_root.data`) names the same route. When in doubt, a path
 * counts as the stricter kind.
 */
export function routePath(originalUrl: string): string {
  let path = originalUrl.split(/[?#]/, 1)[0] ?? "/";
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes: match on the raw text.
  }
  path = path.toLowerCase().replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  path = path.replace(/(\/_root)?\.data$/, "").replace(/\/+$/, "");
  return path.startsWith("/") ? path || "/" : `/${path}`;
}

/** The REST API (bearer tokens, JSON). */
export function isApiPath(path: string): boolean {
  return /^\/api(\/|$)/.test(path);
}

/** Authentication, sign-up and password routes: small bodies, the strictest request limit. */
const AUTH_PATHS = [/^\/login$/, /^\/signup(\/|$)/, /^\/password(\/|$)/, /^\/api\/authentication(\/|$)/, /^\/api\/users\/password(\/|$)/, /^\/api\/users\/[^/]+\/password$/];

export function isAuthPath(path: string): boolean {
  return AUTH_PATHS.some((re) => re.test(path));
}

/** Posts anyone (or any signed-in user) may make that cost the app work: strict limit too. */
const PUBLIC_POST_PATHS = [/^\/report-issue$/];

export function isStrictPost(path: string): boolean {
  return isAuthPath(path) || PUBLIC_POST_PATHS.some((re) => re.test(path));
}

/**
 * Pages opened with a secret token in the address (guessing tokens is limited strictly): in the query
 * (`?token=`) for the sign-up check and the password reset, in the path for an occupier's report
 * status page (/report/status/{token}).
 */
const TOKEN_PAGES = [/^\/signup\/verify$/, /^\/password\/reset$/];
const TOKEN_PATH_PAGES = [/^\/report\/status\/[^/]+$/];

export function isTokenPage(path: string, originalUrl: string): boolean {
  if (TOKEN_PATH_PAGES.some((re) => re.test(path))) return true;
  return TOKEN_PAGES.some((re) => re.test(path)) && /[?&]token=/i.test(originalUrl);
}

/** REST routes whose JSON bodies carry files as base64 data URLs. */
const BASE64_UPLOAD_PATHS = [
  /^\/api\/facilities\/rooms(\/[^/]+)?$/,
  /^\/api\/equipments\/type(\/[^/]+)?$/,
  /^\/api\/entities\/[^/]+(\/explanatory-sticker)?$/,
  // An incident's files, and its comments' attachments (posted and edited).
  /^\/api\/incidents\/[^/]+\/files$/,
  /^\/api\/incidents\/[^/]+\/comments(\/[^/]+)?$/,
];

export function takesBase64Files(path: string): boolean {
  return !isAuthPath(path) && BASE64_UPLOAD_PATHS.some((re) => re.test(path));
}

/** REST routes whose JSON bodies carry at most one file as a base64 data URL (a user's picture). */
const ONE_BASE64_FILE_PATHS = [/^\/api\/users\/[^/]+$/];

export function takesOneBase64File(path: string): boolean {
  return !isAuthPath(path) && ONE_BASE64_FILE_PATHS.some((re) => re.test(path));
}
