import { alertDigests, expiryReminderTask } from "../alerts/tasks";
import { evidenceRetentionTask } from "../evidence/retention";
import { enqueueDueChecks } from "./due";
import type { TickTask } from "../db/tick";

/** What every instance's scheduler tick runs, in order. Append tasks here (see tick.ts). */
export const TICK_TASKS: TickTask[] = [enqueueDueChecks, alertDigests, expiryReminderTask(), evidenceRetentionTask()];
