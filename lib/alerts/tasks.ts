import type { TickTask } from "../db/tick";
import { runDigests } from "./digests";
import { runExpiryReminders } from "./expiry";
import { processAlertLinks } from "./links";

/**
 * The alert work of the scheduler's tick (lib/monitor/tick-tasks.ts), which every instance runs every
 * MONITOR_POLL_SECONDS. Both tasks are safe to run anywhere, any number of times: digests claim their
 * period in the email's transaction, reminders are deduplicated by key.
 */

/** Daily and weekly digests due at this tick's hour. */
export const alertDigests: TickTask = {
  name: "alert-digests",
  async run({ db, now }) {
    await runDigests(db, now, processAlertLinks());
  },
};

/**
 * `link_expiring` reminders: the daily pass. Each instance runs it at its first tick of a UTC day (the
 * reminders' 7-to-2 and 1-to-0 day windows mean a day's late start loses nothing).
 */
export function expiryReminderTask(): TickTask {
  let lastDay: string | null = null;
  return {
    name: "expiry-reminders",
    async run({ db, now }) {
      const day = now.toISOString().slice(0, 10);
      if (day === lastDay) return;
      await runExpiryReminders(db, now, processAlertLinks());
      lastDay = day;
    },
  };
}
