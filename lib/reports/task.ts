import type { TickTask } from "../db/tick";
import { pruneAttachments } from "../mail/attachments";
import { configuredReportLinks } from "./links";
import { productPrinter } from "./make-report";
import { sendDueReports } from "./send";

/**
 * The scheduled reports' work on the scheduler's tick (every instance, every MONITOR_POLL_SECONDS):
 * schedules of ended shares removed, due reports made and queued exactly once (./send.ts), and, once an
 * hour per instance, sent reports' PDFs deleted from the outbox's files. The scheduler lives on a floor
 * below this one, so the server adds this task to its list (server/main.ts).
 */
export function scheduledReportsTask(): TickTask {
  let lastPrune = 0;
  return {
    name: "scheduled-reports",
    async run({ db, config, now }) {
      await sendDueReports({
        db,
        settings: config,
        now,
        links: configuredReportLinks(config),
        print: productPrinter(config),
      });
      if (now.getTime() - lastPrune >= 60 * 60_000) {
        await pruneAttachments(db, now);
        lastPrune = now.getTime();
      }
    },
  };
}
