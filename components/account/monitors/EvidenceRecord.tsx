import { EVIDENCE_REASON_WORDS, utcTime, type Evidence } from "@/lib/schemas/evidence";
import { EvidenceThumbnail } from "./EvidenceThumbnail";
import { relOfSeen } from "./types";
import { VerdictSummary } from "./Verdict";

const linkClass =
  "font-medium text-blue-700 underline underline-offset-2 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200";

/**
 * One evidence record: when and why it was captured, what the page answered, the link and its verdict
 * then, the HTML's fingerprint, and its files. `target` names the tracked link where the list mixes links.
 */
export function EvidenceRecord({ evidence, target }: { evidence: Evidence; target?: string }) {
  const base = `/api/account/evidence/${encodeURIComponent(evidence.id)}`;
  const captured = utcTime(evidence.capturedAt);
  // Every record offers the same three links: screen readers listing links hear which capture each is of.
  const ofThis = <span className="sr-only"> of {captured}</span>;
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row" data-testid="evidence-record" data-reason={evidence.reason}>
      <EvidenceThumbnail evidence={evidence} href={`${base}/screenshot.png`} />
      <div className="min-w-0 flex-1 space-y-2 text-sm">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <time dateTime={evidence.capturedAt} className="font-semibold tabular-nums">
            {captured}
          </time>
          <span className="text-slate-700 dark:text-slate-300">{EVIDENCE_REASON_WORDS[evidence.reason]}</span>
        </p>
        {target && <p className="text-xs wrap-anywhere text-slate-600 dark:text-slate-400">Tracked link: {target}</p>}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
          <dt className="text-slate-600 dark:text-slate-400">Page</dt>
          <dd className="min-w-0">HTTP {evidence.httpStatus ?? "none"}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Link</dt>
          <dd className="min-w-0 break-words">
            {evidence.link ? `“${evidence.link.anchorText ?? ""}” · ${relOfSeen(evidence.link)}` : "not on the page"}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Verdict</dt>
          <dd className="min-w-0">
            <VerdictSummary verdict={evidence.verdict} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">HTML SHA-256</dt>
          <dd className="min-w-0">
            {evidence.htmlSha256 ? (
              <>
                {/* 64 hex digits have no break opportunity: let them wrap anywhere rather than widen the page. */}
                <code className="font-mono text-xs break-all">{evidence.htmlSha256}</code>
                {evidence.htmlBytes !== null && (
                  <span className="text-xs text-slate-600 dark:text-slate-400">
                    {" "}
                    ({evidence.htmlBytes.toLocaleString("en-US")} bytes)
                  </span>
                )}
              </>
            ) : (
              <span className="text-slate-600 dark:text-slate-400">
                not kept (the page&apos;s body could not be read)
              </span>
            )}
          </dd>
        </dl>
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {evidence.screenshot && (
            <a href={`${base}/screenshot.png`} className={linkClass}>
              Screenshot{ofThis}
            </a>
          )}
          {evidence.htmlSha256 && (
            <a href={`${base}/page.html`} download className={linkClass}>
              Page HTML{ofThis}
            </a>
          )}
          <a href={`${base}/report.pdf`} download className={linkClass}>
            PDF report{ofThis}
          </a>
        </p>
      </div>
    </li>
  );
}
