import { z } from "zod";
import { defineJob } from "~/core/jobs.server";

/** A mail as a job carries it (attachments are not sent through the queue). */
export const MailPayload = z.object({
  to: z.string().min(3).max(320),
  subject: z.string().min(1).max(998),
  text: z.string().max(1_000_000),
  html: z.string().max(2_000_000).optional(),
  link: z.string().max(4096).optional(),
});
export type MailPayload = z.infer<typeof MailPayload>;

/** Sends one mail through the mailer (SMTP, or the outbox folder); retried on failure. */
export const sendEmailJob = defineJob({
  name: "send-email",
  payload: MailPayload,
  retryLimit: 5,
  async handler(mail, job) {
    await job.services.mailer.send(mail);
  },
});
