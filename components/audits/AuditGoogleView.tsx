import { googleViewInWords } from "@/lib/schemas/google-view";
import type { Audit } from "@/lib/schemas/audits";

/**
 * A URL audit's Google view in one line (google-view.md §4): "Google's view: N links (visitor: M)", how
 * many of the visitor's links Googlebot's render lacks, or why it is unavailable. Nothing for a pasted
 * audit or one saved before Google's view existed.
 */
export function AuditGoogleView({ audit }: { audit: Pick<Audit, "mode" | "page" | "links"> }) {
  const view = audit.page?.googleView ?? null;
  if (audit.mode !== "url" || !view) return null;
  const visitor = audit.links.length;
  const missing = audit.links.filter((link) => link.signals?.inGoogleView === false).length;
  return (
    <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="audit-google-view">
      <span className="font-semibold">Google&apos;s view:</span>{" "}
      {view.status === "ok" ? (
        <>
          {view.linkCount ?? 0} link{view.linkCount === 1 ? "" : "s"} (visitor: {visitor})
          {missing > 0 && ` · ${missing} of the visitor's links not in Google's view`}
          {view.noindex === true && " · noindex for Googlebot"}
        </>
      ) : (
        googleViewInWords(view, true)
      )}
    </p>
  );
}
