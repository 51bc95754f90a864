/** What the server's middlewares read of the validated configuration (app/config.server.ts). */
export interface ServerSettings {
  APP_URL: string;
  /** Whether APP_URL was configured; else the request's own origin is the app's. */
  appUrlConfigured: boolean;
  TRUST_PROXY: number;
  COMPRESSION: boolean;
  UPLOAD_MAX_BYTES: number;
  RATE_LIMIT_MULTIPLIER: number;
  /** Origins allowed to call /api from a browser (CORS); empty: none. */
  API_CORS_ORIGINS?: readonly string[];
}
