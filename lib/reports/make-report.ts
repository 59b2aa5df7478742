import { printPdf } from "../analyzer";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { resolveAuthSecret } from "../db/secret";
import { storeAttachment } from "../mail/attachments";
import { enqueueEmail, type DbOrTx } from "../mail/outbox";
import type { ScheduleCadence } from "../schemas/share-schedules";
import { reportFilename } from "../shares/export";
import { shareEmailTopic, type ShareRow } from "../shares/shares";
import { resolveBranding } from "../branding";
import { unsubscribeHeaders, type ReportLinks } from "./links";
import { reportEmail } from "./report-email";
import { gatherReport, type ReportContent } from "./report-data";
import { reportHtml } from "./report-html";
import { ensureReportLink } from "./report-link";
import type { ReportPeriod } from "./schedule-times";

/**
 * One scheduled report, made and queued: its content read once, its PDF printed once by the product's
 * Chromium (all pages, as background work), then one outbox email per recipient, all carrying the same
 * stored PDF, each with its own unsubscribe link and List-Unsubscribe headers. The scheduled send
 * (./send.ts) and the test (./send-test.ts) both go through here.
 */

/** Prints a report's HTML; the real one is printPdf, tests may count calls. */
export type Printer = (html: string) => Promise<Buffer>;

/** A report of many links is several pages: give the browser time, at background priority. */
const PRINT_TIMEOUT_MS = 90_000;

export function productPrinter(settings: Config): Printer {
  return (html) => printPdf(html, { settings, pages: "all", priority: "background", timeoutMs: PRINT_TIMEOUT_MS });
}

export interface MadeReport {
  content: ReportContent;
  pdf: Buffer;
  filename: string;
}

export interface MakeInput {
  db: Db;
  settings: Config;
  links: ReportLinks;
  print: Printer;
  share: ShareRow;
  cadence: ScheduleCadence;
  period: ReportPeriod;
  sinceLastReport: boolean;
}

export async function makeReport(input: MakeInput): Promise<MadeReport> {
  const { share } = input;
  const token = await ensureReportLink(input.db, share.id, resolveAuthSecret(input.settings), share.reportLinkHash);
  const content = await gatherReport(input.db, {
    share,
    branding: await resolveBranding(input.db, share.organizationId),
    cadence: input.cadence,
    period: input.period,
    sinceLastReport: input.sinceLastReport,
    reportUrl: input.links.report(token),
  });
  const pdf = await input.print(reportHtml(content, input.period.end));
  return { content, pdf, filename: reportFilename(share.title, input.period.end, "pdf") };
}

/** Writes the report's emails (and its PDF, once) in the caller's transaction; answers the subject. */
export async function queueReport(
  tx: DbOrTx,
  report: MadeReport,
  input: { share: ShareRow; links: ReportLinks; recipients: readonly string[]; test?: boolean },
): Promise<string> {
  const attachmentId = await storeAttachment(tx, {
    filename: report.filename,
    contentType: "application/pdf",
    content: report.pdf,
  });
  let subject = "";
  for (const to of input.recipients) {
    const target = { shareId: input.share.id, email: to };
    const content = reportEmail({
      content: report.content,
      to,
      unsubscribeUrl: input.links.unsubscribe(target),
      test: input.test,
    });
    subject = content.subject;
    await enqueueEmail(tx, {
      to,
      content,
      organizationId: input.share.organizationId,
      headers: unsubscribeHeaders(input.links, target),
      attachmentId,
      about: shareEmailTopic(input.share.id),
    });
  }
  return subject;
}
