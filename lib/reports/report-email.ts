import { html, safeHref, type SafeHtml } from "../mail/html";
import type { EmailContent } from "../mail/templates";
import type { MovedLink, VerdictMove } from "./changes";
import type { ReportContent } from "./report-data";
import {
  changesHeading,
  dateWords,
  movedWords,
  NOTHING_CHANGED,
  periodWords,
  reportKind,
  stateCountWords,
  totalWords,
  verdictCountWords,
  verdictMoveWords,
} from "./words";

/**
 * The email of a scheduled report, for one recipient: the period, the counts by state and by verdict and
 * what changed, in words; the share link while the share is valid; the PDF (attached by the sender); the
 * branding (its name at the top, its accent colour on the rule, its footer); and a visible unsubscribe
 * link beside the List-Unsubscribe header. HTML through the escaping `html` tag, and a plain-text part.
 */

/** Each list of changes shows this many; the rest are in the PDF. */
export const EMAIL_CHANGE_LIMIT = 25;
const DEFAULT_ACCENT = "#4338ca";

export interface ReportEmailInput {
  content: ReportContent;
  /** The recipient's address. */
  to: string;
  unsubscribeUrl: string;
  /** A test sent by an admin to their own address, not a scheduled one. */
  test?: boolean;
}

interface Section {
  title: string;
  lines: string[];
  more: number;
}

function sections(content: ReportContent): Section[] {
  const cut = (lines: string[]): Pick<Section, "lines" | "more"> => ({
    lines: lines.slice(0, EMAIL_CHANGE_LIMIT),
    more: Math.max(0, lines.length - EMAIL_CHANGE_LIMIT),
  });
  const { lost, restored, verdicts } = content.changes;
  return [
    { title: `Lost (${lost.length})`, ...cut(lost.map((link: MovedLink) => movedWords(link))) },
    { title: `Restored (${restored.length})`, ...cut(restored.map((link: MovedLink) => movedWords(link))) },
    {
      title: `Verdict changes (${verdicts.length})`,
      ...cut(verdicts.map((move: VerdictMove) => verdictMoveWords(move))),
    },
  ].filter((section) => section.lines.length > 0);
}

export function reportSubject(content: ReportContent, test = false): string {
  return `${test ? "[Test] " : ""}${content.title} — ${reportKind(content.cadence).toLowerCase()} from ${content.branding.name}`;
}

function linkWords(content: ReportContent): string {
  return content.expiresAt
    ? `The report on the web (the link works until ${dateWords(content.expiresAt)}):`
    : "The report on the web:";
}

function reasonWords(input: ReportEmailInput): string {
  const { name } = input.content.branding;
  return input.test
    ? `This is a test: an admin of ${name} sent it to their own address, ${input.to}. Scheduled reports go only to addresses that confirmed.`
    : `You get this report because an admin of ${name} added ${input.to} and you confirmed.`;
}

export function reportEmail(input: ReportEmailInput): EmailContent {
  const { content } = input;
  const subject = reportSubject(content, input.test);
  const heading = `${reportKind(content.cadence)}: ${content.title}`;
  const changed = sections(content);
  const more = (section: Section) => (section.more > 0 ? `… and ${section.more} more (in the attached PDF).` : "");

  const text = [
    heading,
    `${content.branding.name} · ${content.covers}`,
    "",
    periodWords(content.period),
    "",
    totalWords(content.total),
    `By state: ${stateCountWords(content.states)}.`,
    `By verdict: ${verdictCountWords(content.verdicts)}.`,
    "",
    `${changesHeading(content.sinceLastReport, content.cadence)}:`,
    ...(changed.length === 0
      ? [NOTHING_CHANGED]
      : changed.flatMap((section) => [
          `${section.title}:`,
          ...section.lines.map((line) => `- ${line}`),
          ...(section.more > 0 ? [more(section)] : []),
        ])),
    "",
    "Every link with its state, verdict and reasons is in the attached PDF.",
    `${linkWords(content)} ${content.reportUrl}`,
    "",
    ...(content.branding.footer ? [content.branding.footer, ""] : []),
    "--",
    reasonWords(input),
    `Unsubscribe (one click, no account needed): ${input.unsubscribeUrl}`,
    "",
  ].join("\n");

  const accent = content.branding.accentColor ?? DEFAULT_ACCENT;
  const changeHtml: SafeHtml =
    changed.length === 0
      ? html`<p style="margin:0 0 12px">${NOTHING_CHANGED}</p>`
      : html`${changed.map(
          (section) =>
            html`<p style="margin:12px 0 4px;font-weight:600">${section.title}</p><ul style="margin:0 0 8px;padding-left:20px">${section.lines.map(
              (line) => html`<li style="margin:0 0 4px;word-break:break-word">${line}</li>`,
            )}</ul>${section.more > 0 ? html`<p style="margin:0 0 8px;color:#475569">${more(section)}</p>` : ""}`,
        )}`;
  const body = html`<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:640px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-top:4px solid ${accent};border-radius:12px;padding:24px">
<p style="margin:0 0 8px;font-weight:600">${content.branding.name}</p>
<h1 style="font-size:20px;margin:0 0 4px">${heading}</h1>
<p style="margin:0 0 16px;color:#475569;word-break:break-word">${content.covers}</p>
<p style="margin:0 0 16px">${periodWords(content.period)}</p>
<p style="margin:0 0 4px">${totalWords(content.total)}</p>
<p style="margin:0 0 4px">By state: ${stateCountWords(content.states)}.</p>
<p style="margin:0 0 16px">By verdict: ${verdictCountWords(content.verdicts)}.</p>
<h2 style="font-size:16px;margin:0 0 8px;padding-bottom:4px;border-bottom:2px solid ${accent}">${changesHeading(content.sinceLastReport, content.cadence)}</h2>
${changeHtml}
<p style="margin:16px 0 8px">Every link with its state, verdict and reasons is in the attached PDF.</p>
<p style="margin:0 0 16px">${linkWords(content)} <a href="${safeHref(content.reportUrl)}" style="word-break:break-all">${content.reportUrl}</a></p>
${content.branding.footer ? html`<p style="margin:16px 0;color:#334155;white-space:pre-line">${content.branding.footer}</p>` : ""}
<p style="font-size:12px;color:#64748b;margin:16px 0 4px">${reasonWords(input)}</p>
<p style="font-size:12px;color:#64748b;margin:0"><a href="${safeHref(input.unsubscribeUrl)}" style="color:#64748b">Unsubscribe</a> — one click, no account needed.</p>
</div></body></html>`;
  return { kind: "report", subject, text, html: body.value };
}
