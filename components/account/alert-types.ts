/** Shared by the settings form (client) and the alerts page (server): a plain module, not a client one. */

import { ALERT_TYPES, type AlertType } from "@/lib/schemas/alerts";

/** The words the settings form shows for each alert type (the types themselves are the API's). */
const LABELS: Record<AlertType, string> = {
  link_missing: "A tracked link is removed",
  link_restored: "A removed link is back",
  link_broken: "A link's target stops working",
  link_fixed: "A broken link works again",
  rel_changed: "A link's rel changes (e.g. becomes nofollow)",
  anchor_changed: "A link's anchor text changes",
  page_noindex: "A monitored page turns noindex",
  page_unreachable: "A monitored page keeps failing to load",
  link_expiring: "A placement expires in 7 days / tomorrow",
  verdict_changed: "A link's verdict changes (counts, at risk, doesn't count)",
  crawler_access_changed: "A page's robots.txt blocks or allows a crawler again (GPTBot, ClaudeBot, Bingbot, …)",
};

/** The alert types a user can choose, in the API's order, with their words. */
export const ALERT_TYPE_LABELS: ReadonlyArray<readonly [AlertType, string]> = ALERT_TYPES.map(
  (type) => [type, LABELS[type]] as const,
);
