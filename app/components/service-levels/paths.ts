/** The service-level settings screen: linked from the dashboard, whose chunk must not carry the forms. */
export const SERVICE_LEVELS = "/administration/service-levels";
