import { Panel } from "@/components/analyzer/Panel";
import type { Evidence } from "@/lib/schemas/evidence";
import { EvidenceRecord } from "./EvidenceRecord";
import type { TrackedLink } from "./types";

/** The records a "Capture evidence" just made, one per tracked link, each named by its link. */
export function CapturedEvidence({ items, links }: { items: Evidence[]; links: TrackedLink[] }) {
  const targetOf = (evidence: Evidence) =>
    links.find((link) => link.id === evidence.trackedLinkId)?.target ?? "a link no longer tracked";
  return (
    <Panel id="captured-evidence" title={`Evidence captured just now (${items.length})`}>
      <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="captured-evidence">
        {items.map((evidence) => (
          <EvidenceRecord key={evidence.id} evidence={evidence} target={targetOf(evidence)} />
        ))}
      </ol>
    </Panel>
  );
}
