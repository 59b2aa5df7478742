import type { Link } from "@/lib/api/schemas";
import { INTERVALS as INTERVAL_MINUTES, LINK_STATES, type LinkState } from "@/lib/schemas/monitors";

/**
 * How the monitoring pages word the API's values. The shapes themselves are the server's schemas
 * (lib/schemas/monitors.ts), imported as they are: the pages cannot drift from what the API answers.
 */
export type { Check, ImportResult, LinkState, Monitor, TrackedLink, Transition } from "@/lib/schemas/monitors";

const INTERVAL_LABELS: Record<(typeof INTERVAL_MINUTES)[number], string> = {
  60: "Every hour",
  360: "Every 6 hours",
  720: "Every 12 hours",
  1440: "Daily",
  10080: "Weekly",
};

export const INTERVALS: Array<{ minutes: number; label: string }> = INTERVAL_MINUTES.map((minutes) => ({
  minutes,
  label: INTERVAL_LABELS[minutes],
}));

export const STATES: readonly LinkState[] = LINK_STATES;

export function intervalLabel(minutes: number): string {
  return INTERVALS.find((item) => item.minutes === minutes)?.label ?? `${minutes} min`;
}

/** The rel of a seen link as one word (sponsored and ugc outrank nofollow). */
export function relOfSeen(link: Link): string {
  if (link.isSponsored) return "sponsored";
  if (link.isUgc) return "ugc";
  if (link.isNofollow) return "nofollow";
  return "follow";
}
