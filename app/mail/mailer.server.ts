import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { logger } from "~/lib/logger.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail carries (sign-up, reset); logged in outbox mode so a local user can follow it. */
  link?: string;
  attachments?: { filename: string; content: Buffer | string; contentType?: string }[];
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  /** Folder the outbox writes to when no SMTP server is configured. */
  outboxDir: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file, in outbox mode. */
  file?: string;
}

/**
 * Sends real mail through SMTP when SMTP_URL is set; otherwise writes each message as an .eml file
 * (plus a .json summary) into the outbox folder in the data folder.
 */
export function createMailer(options: MailerOptions) {
  const smtp = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  return {
    mode: smtp ? ("smtp" as const) : ("outbox" as const),
    async send(mail: Mail): Promise<SentMail> {
      const message = {
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
      };
      if (smtp) {
        const info = await smtp.sendMail(message);
        return { messageId: info.messageId };
      }
      const info = await stream.sendMail(message);
      await fs.mkdir(options.outboxDir, { recursive: true });
      const base = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
      const file = path.join(options.outboxDir, `${base}.eml`);
      await writeWhole(file, info.message as Buffer);
      await writeWhole(path.join(options.outboxDir, `${base}.json`), JSON.stringify({ to: mail.to, subject: mail.subject, link: mail.link ?? null, text: mail.text }, null, 2));
      logger().info({ to: mail.to, subject: mail.subject, link: mail.link, file }, "mail written to outbox");
      return { messageId: info.messageId, file };
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;

/**
 * Writes a file of the outbox under a temporary name and renames it: whoever reads the outbox (a person,
 * a test) sees a mail whole or not at all, never half written.
 */
async function writeWhole(file: string, data: string | Buffer): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await fs.writeFile(partial, data);
    await fs.rename(partial, file);
  } catch (error) {
    // A full disk leaves no half-written mail behind; the send-email job tries again later.
    await fs.rm(partial, { force: true }).catch(() => undefined);
    throw error;
  }
}
