import { html, type SafeHtml } from "../mail/html";
import { LINK_STATE_LABELS } from "../schemas/monitors";
import { REASON_WORDS, VERDICT_LABELS } from "../schemas/verdict";
import type { ScopedLink } from "../shares/scope";
import type { MovedLink, VerdictMove } from "./changes";
import { chartSvg } from "./chart-svg";
import type { ReportContent } from "./report-data";
import {
  changesHeading,
  movedWords,
  NOTHING_CHANGED,
  periodWords,
  reportKind,
  stateCountWords,
  totalWords,
  utcWords,
  verdictCountWords,
  verdictMoveWords,
} from "./words";

/**
 * A scheduled report as one self-contained HTML document, which the product's Chromium prints to an A4
 * PDF of as many pages as it needs (printPdf, pages "all"): the branding (logo and name at the top, the
 * accent colour on the rules, the footer at the bottom), the title, the period, the counts, what changed,
 * the period's chart (inline SVG) and every link in scope with its page, target, state, verdict and
 * reasons, and last check. Nothing in it is fetched: the logo is a data: URL and the print page refuses
 * every other request. Every value from a monitored page or a user is escaped (the `html` tag).
 */

/** LinkLens's own accent when the organization has none. */
const DEFAULT_ACCENT = "#4338ca";

function changeList(title: string, items: readonly string[]): SafeHtml {
  if (items.length === 0) return html``;
  return html`<h3>${title} (${items.length})</h3><ul class="changes">${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}

function changesSection(content: ReportContent): SafeHtml {
  const { lost, restored, verdicts } = content.changes;
  const body =
    lost.length + restored.length + verdicts.length === 0
      ? html`<p>${NOTHING_CHANGED}</p>`
      : html`${changeList(
          "Lost",
          lost.map((link: MovedLink) => movedWords(link)),
        )}${changeList(
          "Restored",
          restored.map((link: MovedLink) => movedWords(link)),
        )}${changeList(
          "Verdict changes",
          verdicts.map((move: VerdictMove) => verdictMoveWords(move)),
        )}`;
  return html`<h2>${changesHeading(content.sinceLastReport, content.cadence)}</h2>${body}`;
}

function linkRow(link: ScopedLink): SafeHtml {
  const verdict = link.verdict
    ? html`<strong>${VERDICT_LABELS[link.verdict.value]}</strong>${link.verdict.reasons.map(
        (reason) => html`<br>${REASON_WORDS[reason]}`,
      )}`
    : html`No verdict yet`;
  return html`<tr><td class="url">${link.pageUrl}</td><td class="url">${link.target}${link.match === "exact" ? "" : ` (${link.match} match)`}</td><td>${LINK_STATE_LABELS[link.state]}</td><td>${verdict}</td><td>${link.lastCheckedAt ? utcWords(link.lastCheckedAt) : "Not checked yet"}</td></tr>`;
}

export function reportHtml(content: ReportContent, printedAt: Date): string {
  const { branding } = content;
  const accent = branding.accentColor ?? DEFAULT_ACCENT;
  const logo = branding.logoPng
    ? html`<img class="logo" src="data:image/png;base64,${Buffer.from(branding.logoPng).toString("base64")}" alt="${branding.name}">`
    : "";
  const links =
    content.links.length === 0
      ? html`<p>No tracked link is in this report yet.</p>`
      : html`<table class="links"><thead><tr><th>Page</th><th>Target</th><th>State</th><th>Verdict and reasons</th><th>Last checked</th></tr></thead><tbody>${content.links.map(linkRow)}</tbody></table>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${content.title}</title>
<style>
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 9pt/1.35 "Liberation Sans", Arial, Helvetica, sans-serif; color: #0f172a; margin: 0; }
.bar { height: 2mm; background: ${accent}; margin-bottom: 3mm; }
header { display: flex; align-items: center; gap: 4mm; margin-bottom: 2mm; }
.logo { max-height: 14mm; max-width: 50mm; }
.brand { font-size: 11pt; font-weight: 600; }
h1 { font-size: 16pt; margin: 0 0 1mm; }
.sub { color: #475569; margin: 0 0 3mm; }
h2 { font-size: 11pt; margin: 4mm 0 1.5mm; padding-bottom: 0.5mm; border-bottom: 0.4mm solid ${accent}; }
h3 { font-size: 9.5pt; margin: 2mm 0 1mm; }
p { margin: 0 0 1.5mm; }
ul.changes { margin: 0 0 2mm; padding-left: 5mm; }
ul.changes li { overflow-wrap: anywhere; }
.chart figcaption { color: #334155; margin-bottom: 1mm; }
.plot { display: flex; gap: 2mm; }
.axis { display: flex; flex-direction: column; justify-content: space-between; font-size: 7.5pt; color: #475569; text-align: right; }
.plot svg { flex: 1; height: 40mm; border-left: 0.3mm solid #94a3b8; border-bottom: 0.3mm solid #94a3b8; }
ul.legend { list-style: none; padding: 0; margin: 1.5mm 0 0; display: flex; flex-wrap: wrap; gap: 1mm 5mm; font-size: 8pt; }
.swatch { display: inline-block; width: 3mm; height: 3mm; margin-right: 1mm; vertical-align: -0.4mm; border-radius: 0.5mm; }
table.links { width: 100%; border-collapse: collapse; font-size: 8pt; }
table.links th { text-align: left; border-bottom: 0.4mm solid ${accent}; padding: 1mm 1.5mm 1mm 0; }
table.links td { vertical-align: top; padding: 1mm 1.5mm 1mm 0; border-bottom: 0.2mm solid #e2e8f0; }
table.links td.url { overflow-wrap: anywhere; width: 28%; }
table.links tr { break-inside: avoid; }
footer { margin-top: 5mm; color: #475569; font-size: 8pt; white-space: pre-line; }
</style></head>
<body>
<div class="bar"></div>
<header>${logo}<span class="brand">${branding.name}</span></header>
<h1>${content.title}</h1>
<p class="sub">${reportKind(content.cadence)} · ${content.covers}</p>
<p>${periodWords(content.period)}</p>
<h2>Summary</h2>
<p>${totalWords(content.total)}</p>
<p>By state: ${stateCountWords(content.states)}.</p>
<p>By verdict: ${verdictCountWords(content.verdicts)}.</p>
${changesSection(content)}
<h2>Over the period</h2>
${chartSvg(content.chart)}
<h2>Every tracked link</h2>
${links}
<footer>${branding.footer ? `${branding.footer}\n` : ""}Made ${utcWords(printedAt)} by LinkLens for ${branding.name}.</footer>
</body></html>`.value;
}
