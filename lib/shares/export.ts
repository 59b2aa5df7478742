import { readLinkBatch } from "../account/audit-links";
import { csvCells, EXPORT_CSV_COLUMNS } from "../account/audit-export";
import { csvRow } from "../account/csv-cells";
import type { Runtime } from "../db/runtime";
import { uptimeOfLinks } from "../stats/uptime-query";
import type { OpenShare } from "./open";
import { linkRows, STRIP_DAYS } from "./report";
import { scopedLinks, sharedAudit } from "./scope";

/**
 * /r/{token}/export.csv: the report's rows as CSV (RFC 4180, UTF-8, formula-safe like every export),
 * every page of them, streamed a batch at a time. Tag and monitor reports: one row per tracked link;
 * audit reports: the audit export's columns.
 */

export const REPORT_CSV_COLUMNS = [
  "page_url",
  "target_url",
  "match",
  "state",
  "verdict",
  "verdict_reasons",
  "last_checked_at",
  "live_percent_90d",
] as const;

/** Rows read (and their strips computed) per query while streaming. */
const BATCH = 500;

export interface ReportDownload {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** linklens-report-<title>-<date>.csv (or .pdf, a scheduled report's) with only safe ASCII characters. */
export function reportFilename(title: string, now: Date, extension: "csv" | "pdf" = "csv"): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "report";
  return `linklens-report-${slug}-${now.toISOString().slice(0, 10)}.${extension}`;
}

/** A pull stream: the header, then `next(batch)` until it answers fewer than BATCH rows. */
function batches(
  header: readonly string[],
  next: (index: number) => Promise<string[]>,
  size: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(header)));
    },
    async pull(controller) {
      const rows = await next(index++);
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.join("")));
      if (rows.length < size) controller.close();
    },
  });
}

export async function exportReport(
  runtime: Pick<Runtime, "db" | "now">,
  opened: OpenShare,
): Promise<ReportDownload | null> {
  const { share: row } = opened;
  const now = runtime.now();
  const filename = reportFilename(row.title, now);
  if (row.scope === "audit") {
    const saved = await sharedAudit(runtime.db, row);
    if (!saved) return null;
    let after = 0;
    const next = async () => {
      const links = await readLinkBatch(runtime.db, saved.id, after, BATCH);
      after = links.at(-1)?.position ?? after;
      return links.map((link) => csvRow(csvCells(link)));
    };
    return { filename, body: batches(EXPORT_CSV_COLUMNS, next, BATCH) };
  }
  const next = async (index: number) => {
    const links = await scopedLinks(runtime.db, row, index * BATCH, BATCH);
    const uptimes = await uptimeOfLinks(
      runtime.db,
      row.organizationId,
      links.map((link) => link.id),
      STRIP_DAYS,
      now,
    );
    return linkRows(links, uptimes).map((link) =>
      csvRow([
        link.pageUrl,
        link.target,
        link.match,
        link.state,
        link.verdict?.value ?? null,
        link.verdict?.reasons.join(";") ?? null,
        link.lastCheckedAt,
        link.uptime.livePercent,
      ]),
    );
  };
  return { filename, body: batches(REPORT_CSV_COLUMNS, next, BATCH) };
}
