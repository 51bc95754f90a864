import { z } from "zod";
import { config } from "~/config.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { isLocale } from "~/i18n";
import { logger } from "~/lib/logger.server";
import { expireExports, runExport } from "./service.server";

/**
 * The exports' background work (decision 055): `export` writes one export's file (enqueued by
 * `startExport` in its transaction); `export-expiry`, every night, deletes the files whose time has come.
 */
export const exportJob = defineJob({
  name: "export",
  payload: z.object({ entityId: z.number().int().positive(), dataJobId: z.number().int().positive() }),
  retryLimit: 2,
  async handler(payload, job) {
    // Loaded when a job runs, not with the verbs: the texts bundle is the server build's (the benchmark
    // and other plain Node scripts import the verbs without it).
    const { getT } = await import("~/i18n.server");
    const result = await runExport(job.services, payload, {
      texts: (locale) => getT(isLocale(locale) ? locale : "en", "exports") as unknown as (key: string) => string,
      retentionHours: config().EXPORT_RETENTION_HOURS,
    });
    logger().info({ ...payload, ...result }, "export finished");
  },
});

export const exportExpiryJob = defineJob({
  name: "export-expiry",
  payload: z.object({}),
  retryLimit: 3,
  async handler(_payload, job) {
    await expireExports(job.services);
  },
});

/**
 * Every night at 04:25, Brussels time: the files of the exports past their expiry are deleted. An
 * export is no longer offered nor served from its expiry on (queries.server.ts, files/access.server.ts);
 * the nightly pass frees the disk.
 */
export const exportExpirySchedule = defineSchedule({ name: "export-expiry", job: exportExpiryJob, payload: {}, cron: "25 4 * * *" });
