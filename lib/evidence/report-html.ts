import { accentColors, brandFooterHtml, brandHeaderHtml } from "../branding";
import type { ResolvedBranding } from "../schemas/branding";
import { EVIDENCE_REASON_WORDS, utcTime } from "../schemas/evidence";
import { REASON_WORDS, VERDICT_LABELS, type SignedInLink } from "../schemas/verdict";
import { signedInLinkView } from "../db/stored-link";
import type { EvidenceMeta } from "./views";

/**
 * The evidence report (GET /api/account/evidence/{id}/report.pdf) as one self-contained HTML page, which
 * the browser prints to a single A4 page: everything a vendor needs to check a refund claim, with the
 * screenshot embedded as a data: URL (the print page loads nothing else). Every value that came from the
 * monitored page is escaped: an anchor text is text, never markup. The organization's branding
 * (reports-and-channels.md "Branding") draws the top band (logo, name and the title), the rules under the
 * section headings and the footer.
 */

export interface ReportInput {
  record: EvidenceMeta;
  branding: ResolvedBranding;
  png: Buffer | null;
  /** Googlebot's render (google-view.md §2), printed beside the visitor's; null when the record kept none. */
  google?: { png: Buffer; linkOutlined: boolean } | null;
  /** When the PDF is made (printed in the footer). */
  printedAt: Date;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function relWords(link: SignedInLink): string {
  const flags = [link.isNofollow && "nofollow", link.isSponsored && "sponsored", link.isUgc && "ugc"].filter(Boolean);
  return flags.length ? flags.join(", ") : "none (followed)";
}

function yesNo(value: boolean | null, yes: string, no: string): string {
  return value === null ? "unknown" : value ? yes : no;
}

function row(label: string, value: string, mono = false): string {
  return `<tr><th>${escapeHtml(label)}</th><td${mono ? ' class="mono"' : ""}>${escapeHtml(value)}</td></tr>`;
}

function linkRows(link: SignedInLink | null): string {
  if (!link) return row("Link", "Not on the page at this moment");
  return [
    row("Link href", link.href, true),
    row("Anchor text", link.anchorText || "(none)"),
    row("Rel", relWords(link)),
    row("Position", `${link.position} (of the page's links, in document order)`),
    row("Link type", `${link.linkType}${link.isImage ? ", image link" : ""}`),
    row(
      "Target status",
      link.httpStatus === null ? "not checked" : link.httpStatus === 0 ? "no response" : `HTTP ${link.httpStatus}`,
    ),
    row("In the HTML as sent", yesNo(link.signals.inRawHtml, "yes", "no, added by JavaScript")),
    row("Visible", yesNo(link.signals.hidden === null ? null : !link.signals.hidden, "yes", "no, hidden by CSS")),
    row("Page region", link.signals.region ?? "none"),
    row(
      "In Googlebot's view",
      yesNo(link.signals.inGoogleView, "yes", "no, Googlebot's render of the page does not have it"),
    ),
  ].join("");
}

function verdictRows(record: EvidenceMeta): string {
  const verdict = record.verdict;
  if (!verdict) return row("Verdict", "not yet known");
  const reasons = verdict.reasons.length
    ? verdict.reasons.map((reason) => `• ${REASON_WORDS[reason]}`).join("\n")
    : "no reason against it";
  return (
    row("Verdict", VERDICT_LABELS[verdict.value]) + `<tr><th>Why</th><td class="pre">${escapeHtml(reasons)}</td></tr>`
  );
}

/** A screenshot with its caption (and, when two are printed side by side, which view it is). */
function figure(png: Buffer, alt: string, caption: string, title: string | null): string {
  const heading = title ? `<h3>${escapeHtml(title)}</h3>` : "";
  return `<figure>${heading}<img src="data:image/png;base64,${png.toString("base64")}" alt="${escapeHtml(alt)}"><figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

/** URLs up to this long are printed on one line (pdftotext and a reader can copy them whole). */
const ONE_LINE_URL = 110;

export function reportHtml(input: ReportInput): string {
  const { record } = input;
  const link = signedInLinkView(record.link ?? null);
  const longestUrl = Math.max(record.pageUrl.length, record.finalUrl?.length ?? 0, link?.href.length ?? 0);
  const urlSize = longestUrl <= 80 ? 9 : longestUrl <= ONE_LINE_URL ? 7 : 6.5;
  const visitorShot = input.png
    ? figure(
        input.png,
        `Screenshot of the page at ${utcTime(record.capturedAt)}`,
        record.linkBox
          ? "Screenshot of the rendered page, 1280 px wide, scrolled to the link; the link is outlined in red."
          : "Screenshot of the top of the rendered page, 1280 px wide (the link was not visible on the page).",
        input.google ? "A visitor's view (desktop)" : null,
      )
    : `<p class="note">No screenshot could be taken of this render.</p>`;
  const { accent } = accentColors(input.branding.accentColor);
  const googleShot = input.google
    ? figure(
        input.google.png,
        `Screenshot of the page as Googlebot rendered it at ${utcTime(record.capturedAt)}`,
        input.google.linkOutlined
          ? "The page as Googlebot Smartphone rendered it (412 px wide phone), scrolled to the link; the link is outlined in red."
          : "The top of the page as Googlebot Smartphone rendered it (412 px wide phone); the link is not in Googlebot's view.",
        "Googlebot's view (phone)",
      )
    : "";
  const image = googleShot ? `<div class="shots">${visitorShot}${googleShot}</div>` : visitorShot;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>LinkLens evidence ${escapeHtml(record.id)}</title>
<style>
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 9.5pt/1.35 "Liberation Sans", Arial, Helvetica, sans-serif; color: #0f172a; margin: 0; }
/* One A4 page (297 mm less the margins): every block keeps its height but the screenshot, which takes what
   is left (92 mm at most), so the footers below it are always on the page, whatever the branding adds. */
body { height: 272mm; display: flex; flex-direction: column; }
body > * { flex: none; }
body > figure { flex: 0 1 auto; min-height: 0; display: flex; flex-direction: column; }
.brand-header { margin: 0 0 2mm; }
.sub { color: #475569; margin: 0 0 3mm; }
table { width: 100%; border-collapse: collapse; margin-bottom: 3mm; }
th { text-align: left; width: 36mm; font-weight: 600; color: #334155; vertical-align: top; padding: 0.6mm 2mm 0.6mm 0; }
td { padding: 0.6mm 0; vertical-align: top; overflow-wrap: anywhere; }
td.mono { font-family: "Liberation Mono", "Courier New", monospace; font-size: ${urlSize}pt; white-space: ${longestUrl <= ONE_LINE_URL ? "nowrap" : "normal"}; }
td.hash { font-family: "Liberation Mono", "Courier New", monospace; font-size: 8pt; white-space: nowrap; }
td.pre { white-space: pre-line; }
h2 { font-size: 10.5pt; margin: 2mm 0 1mm; border-bottom: 0.4mm solid ${accent}; }
figure { margin: 0; }
figure img { display: block; flex: 0 1 auto; min-height: 0; align-self: flex-start; max-width: 100%; max-height: 92mm; object-fit: contain; object-position: left top; border: 0.3mm solid #94a3b8; }
/* Two shots side by side share what is left the same way: each figure is as tall as the row, its image
   shrinks and its caption keeps its lines. */
body > .shots { flex: 0 1 auto; min-height: 0; display: flex; gap: 4mm; align-items: stretch; }
.shots figure { display: flex; flex-direction: column; min-height: 0; }
.shots figcaption, .shots h3 { flex: none; }
.shots figure:first-child { flex: 1 1 auto; min-width: 0; }
.shots figure:last-child { flex: 0 0 62mm; }
.shots img { max-height: 80mm; }
figure h3 { font-size: 9pt; margin: 0 0 1mm; }
figcaption, .note, footer { color: #475569; font-size: 8pt; margin-top: 1mm; }
</style></head>
<body>
${brandHeaderHtml(input.branding, { title: "Placement evidence" }).value}
<p class="sub">Captured ${escapeHtml(utcTime(record.capturedAt))} · ${escapeHtml(EVIDENCE_REASON_WORDS[record.reason])}</p>
<h2>Page</h2>
<table>
${row("Page URL", record.pageUrl, true)}
${row("Final URL", record.finalUrl ?? "unknown", true)}
${row("Captured (UTC)", utcTime(record.capturedAt))}
${row("HTTP status", record.httpStatus === null ? "unknown" : String(record.httpStatus))}
<tr><th>HTML SHA-256</th><td class="hash">${escapeHtml(record.htmlSha256 ?? "not available (the page's HTML could not be read)")}</td></tr>
${row("HTML size", record.htmlBytes === null ? "unknown" : `${record.htmlBytes.toLocaleString("en-US")} bytes, as the server sent it`)}
</table>
<h2>Tracked link</h2>
<table>
${row("Looking for", `${record.target} (${record.match} match)`, true)}
${linkRows(link)}
${verdictRows(record)}
</table>
${image}
${brandFooterHtml(input.branding).value}
<footer>Evidence ${escapeHtml(record.id)} · printed ${escapeHtml(utcTime(input.printedAt))} by LinkLens. The SHA-256 is of the page's HTML exactly as the server sent it (after content decoding); LinkLens keeps those bytes, and anyone holding them can recompute it.</footer>
</body></html>`;
}
