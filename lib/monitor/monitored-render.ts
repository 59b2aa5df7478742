import type { InspectOptions, PageReport, RenderPriority } from "../analyzer";
import { loadDomainGroups } from "../account/group-lookup";
import type { Db } from "../db/client";
import { CRAWLER_AGENTS } from "../schemas/crawlers";
import { matchesTarget } from "./match";
import type { MonitorRow, TrackedLinkRow } from "./views";

/**
 * How a monitored page is rendered, for a check (run-check.ts) and for evidence captured on request
 * (evidence-now.ts) alike: the same analyzer options, and the same rule for a page that did not load.
 */

export async function monitoredRenderOptions(
  db: Pick<Db, "select">,
  settings: InspectOptions["settings"],
  row: MonitorRow,
  links: readonly TrackedLinkRow[],
  priority: RenderPriority,
  signal: AbortSignal | undefined,
): Promise<InspectOptions> {
  return {
    settings,
    groups: await loadDomainGroups(db, row.organizationId),
    // The analyzer's fair queue keeps one organization's monitors from starving public requests.
    clientKey: `monitor:${row.organizationId}`,
    // Only the links that stand for a tracked target are worth a request; the rest keep httpStatus null.
    checkLinks: (link) => links.some((tracked) => matchesTarget(link.href, tracked)),
    // The placement verdict's link and page signals (placement-verdict.md).
    signals: true,
    // Crawler access (google-view.md §3), from the same robots.txt reading.
    crawlers: CRAWLER_AGENTS,
    // The page stays open until the caller knows which links need evidence: their screenshots come from it.
    evidence: true,
    // Someone waiting ("Check now", a capture) goes before waiting scheduled checks (lib/analyzer/render/queue.ts).
    priority,
    signal,
  };
}

/**
 * A render that is not evidence about the links: the page answered outside 2xx, or with a bot wall or
 * challenge. It changes no link's state (a check's page error) and stores no evidence.
 */
export function notThePage(report: PageReport): boolean {
  const status = report.page.httpStatus;
  return report.page.challenge || (status !== null && (status < 200 || status > 299));
}
