import { z } from "zod";

/** Messages are i18n keys (translated by the transport). */
export const LoginSchema = z.object({
  username: z.string({ error: "auth:login.emailRequired" }).trim().min(1, "auth:login.emailRequired"),
  password: z.string({ error: "auth:login.passwordRequired" }).min(1, "auth:login.passwordRequired"),
});
export type LoginInput = z.infer<typeof LoginSchema>;

/** The web form names the field `email`. */
export const LoginFormSchema = z.object({
  email: z.string({ error: "auth:login.emailRequired" }).trim().min(1, "auth:login.emailRequired"),
  password: z.string({ error: "auth:login.passwordRequired" }).min(1, "auth:login.passwordRequired"),
});

export const RefreshSchema = z.object({
  jwtToken: z.string().optional(),
  refreshToken: z.string({ error: "auth:sessionExpired" }).min(1, "auth:sessionExpired"),
});
