import { Panel } from "@/components/analyzer/Panel";
import { LocalTime } from "../LocalTime";
import type { Check, TrackedLink, Transition } from "./types";

type TimelineItem = { at: string; key: string; text: string; tone: "ok" | "error" | "change" };

/** The page's checks and its tracked links' state changes in one list, newest first. */
export function timelineOf(
  checks: readonly Check[],
  changes: readonly Transition[],
  links: readonly TrackedLink[],
): TimelineItem[] {
  const items: TimelineItem[] = checks.map((check) => ({
    at: check.finishedAt,
    key: `c-${check.id}`,
    tone: check.outcome === "ok" ? "ok" : "error",
    text:
      check.outcome === "ok"
        ? `Checked: page loaded (HTTP ${check.pageStatus ?? "?"}), ${check.linksFound ?? 0} link${check.linksFound === 1 ? "" : "s"} on it`
        : `Checked: page error (${check.errorCode ?? "error"}${check.pageStatus ? `, HTTP ${check.pageStatus}` : ""}); link states kept`,
  }));
  // A removed link's changes leave with it.
  const targets = new Map(links.map((link) => [link.id, link.target]));
  for (const change of changes) {
    const target = targets.get(change.trackedLinkId);
    if (target !== undefined)
      items.push({
        at: change.createdAt,
        key: `t-${change.id}`,
        tone: "change",
        text: `${target}: ${change.fromState} → ${change.toState}`,
      });
  }
  // Newest first; a state change sorts above the check that caused it.
  return items.sort((a, b) => b.at.localeCompare(a.at) || (a.tone === "change" ? -1 : 1));
}

/** The monitor page's timeline: what each check saw, and every state change of a tracked link. */
export function MonitorTimeline({ items }: { items: readonly TimelineItem[] }) {
  return (
    <Panel id="timeline" title="Timeline">
      {items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Not checked yet.</p>
      ) : (
        <ol className="space-y-2 text-sm sm:space-y-1" data-testid="timeline">
          {items.map((item) => (
            <li key={item.key} className="flex flex-col sm:flex-row sm:gap-3">
              <time className="shrink-0 text-slate-600 dark:text-slate-400" dateTime={item.at}>
                <LocalTime iso={item.at} />
              </time>
              {/* The text names URLs: they break where the line ends, not one character a line. */}
              <span
                className={`min-w-0 wrap-anywhere ${item.tone === "error" ? "text-red-800 dark:text-red-300" : item.tone === "change" ? "font-medium" : ""}`}
              >
                {item.text}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
