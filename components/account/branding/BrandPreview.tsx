import { SITE_ICON } from "@/components/site/site-icon";
import { AA_CONTRAST, contrastRatio, DEFAULT_ACCENT, textColorOn } from "@/lib/branding/colors";

/**
 * A client report's top, title, a section heading and footer, drawn as the report will draw them with
 * the branding being edited (before it is saved): the same text colour on the accent as the report, the
 * emails and the PDFs pick, and its contrast in numbers.
 */
export function BrandPreview({
  name,
  accentColor,
  footer,
  logoSrc,
}: {
  name: string;
  /** A valid "#rrggbb", or null for LinkLens's look. */
  accentColor: string | null;
  footer: string;
  logoSrc: string | null;
}) {
  const onAccent = accentColor ? textColorOn(accentColor) : null;
  return (
    <figure className="space-y-2" aria-labelledby="brand-preview-caption">
      <figcaption id="brand-preview-caption" className="text-sm font-medium text-slate-800 dark:text-slate-200">
        Preview of a client report
      </figcaption>
      <div
        className="overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 dark:bg-slate-950 dark:ring-slate-800"
        data-testid="brand-preview"
      >
        <div
          className={
            accentColor
              ? "flex items-center gap-3 px-3 py-2"
              : "flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-900/70"
          }
          style={accentColor && onAccent ? { background: accentColor, color: onAccent } : undefined}
          data-testid="brand-preview-band"
        >
          {logoSrc ? (
            <span className="shrink-0 rounded-md bg-white p-1 leading-none">
              {/* eslint-disable-next-line @next/next/no-img-element -- the organization's logo, from our API */}
              <img src={logoSrc} alt="" className="block h-auto max-h-8 w-auto max-w-32" />
            </span>
          ) : (
            // eslint-disable-next-line @next/next/no-img-element -- a 24px inline SVG data URI
            <img src={SITE_ICON} alt="" width={24} height={24} className="size-6" />
          )}
          <span className="min-w-0 text-sm font-semibold wrap-anywhere">Client report by {name}</span>
        </div>
        <div className="space-y-3 px-3 py-3">
          <p
            className="border-b-4 pb-1 text-lg font-bold tracking-tight"
            style={{ borderColor: accentColor ?? "transparent" }}
          >
            Acme: guest posts
          </p>
          <p className="border-l-4 pl-2 text-sm font-semibold" style={{ borderColor: accentColor ?? "transparent" }}>
            Tracked links (12)
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">Every link in scope, its state and verdict…</p>
        </div>
        {footer.trim() && (
          <p
            className="border-t-2 border-slate-300 px-3 py-2 text-xs whitespace-pre-line text-slate-700 wrap-anywhere dark:border-slate-700 dark:text-slate-300"
            style={accentColor ? { borderColor: accentColor } : undefined}
          >
            {footer.trim()}
          </p>
        )}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="brand-contrast">
        {accentColor && onAccent
          ? `Text on ${accentColor} is ${onAccent === "#ffffff" ? "white" : "black"}: contrast ${contrastRatio(accentColor, onAccent).toFixed(1)}:1 (WCAG AA asks ${AA_CONTRAST}:1).`
          : `No accent colour: reports keep LinkLens's look, and PDFs and emails use LinkLens's blue (${DEFAULT_ACCENT}).`}
      </p>
    </figure>
  );
}
