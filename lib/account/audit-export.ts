import { z } from "zod";
import type { SignedInLink } from "../schemas/verdict";
import type { auditExportQuerySchema } from "../schemas/audits";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import type { Db } from "../db/client";
import { readLinkBatch } from "./audit-links";
import { auditOf, findAudit, type AuditRow } from "./audits";
import { csvRow, type CsvValue } from "./csv-cells";

/**
 * GET /api/account/audits/{id}/export?format=csv|json: a download streamed from the database in
 * batches of links, so a large audit is never held in memory as rows and as a file at once. Every export
 * is written to the activity log (who took which audit out, in which format) before the first byte leaves.
 */

export type ExportFormat = z.infer<typeof auditExportQuerySchema>["format"];

/** The CSV header, exactly (docs/spec/account-api.md, then placement-verdict.md's signals after matchedGroupName). */
export const EXPORT_CSV_COLUMNS = [
  "position",
  "href",
  "linkType",
  "anchorText",
  "isNofollow",
  "isSponsored",
  "isUgc",
  "isImage",
  "httpStatus",
  "matchedGroupName",
  "inRawHtml",
  "hidden",
  "region",
  "inGoogleView",
] as const;

/** One CSV record of a link: its public fields, then its signals, in EXPORT_CSV_COLUMNS' order. */
export function csvCells(link: SignedInLink): CsvValue[] {
  const { signals, ...fields } = link;
  const flat: Record<(typeof EXPORT_CSV_COLUMNS)[number], CsvValue> = {
    ...fields,
    isImage: fields.isImage ?? null,
    ...signals,
  };
  return EXPORT_CSV_COLUMNS.map((column) => flat[column]);
}

/** Links read per query while streaming. */
export const EXPORT_BATCH = 1_000;

export interface AuditDownload {
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** linklens-audit-example.com-20260105-143000Z.csv: the page's host and the audit's time (UTC); ASCII only. */
export function exportFilename(row: Pick<AuditRow, "domain" | "createdAt">, format: ExportFormat): string {
  const stamp = row.createdAt.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const domain = row.domain.replace(/[^a-z0-9.-]/gi, "_") || "page";
  return `linklens-audit-${domain}-${stamp}Z.${format}`;
}

/** The JSON Audit up to its links array, as the GET route answers it (its serialization without `]}`). */
function jsonHead(row: AuditRow): string {
  return JSON.stringify(auditOf(row, [])).slice(0, -"]}".length);
}

/**
 * A stream of `head`, then every link of the audit encoded in position order (a batch a pull), then
 * `tail`. Pull-based: the next batch is read only when the client has taken the previous one.
 */
function linkStream(
  db: Pick<Db, "select">,
  auditId: string,
  head: string,
  encode: (link: SignedInLink, index: number) => string,
  tail: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let index = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      if (!started) {
        started = true;
        text += head;
      }
      const links = await readLinkBatch(db, auditId, after, EXPORT_BATCH);
      for (const link of links) text += encode(link, index++);
      const last = links.at(-1);
      if (last?.position != null) after = last.position;
      if (links.length < EXPORT_BATCH) text += tail;
      if (text) controller.enqueue(encoder.encode(text));
      if (links.length < EXPORT_BATCH) controller.close();
    },
  });
}

export async function exportAudit(ctx: AccountContext, id: string, format: ExportFormat): Promise<AuditDownload> {
  const { db } = ctx;
  const row = await findAudit(ctx, id);
  await recordActivity(db, {
    organizationId: ctx.organization.id,
    actor: ctx.user,
    action: "audit.export",
    target: { type: "audit", id: row.id },
    details: { format, url: row.url, links: row.stats.total },
  });
  const body =
    format === "csv"
      ? linkStream(db, row.id, csvRow(EXPORT_CSV_COLUMNS), (link) => csvRow(csvCells(link)), "")
      : linkStream(db, row.id, jsonHead(row), (link, index) => (index === 0 ? "" : ",") + JSON.stringify(link), "]}");
  return { filename: exportFilename(row, format), contentType: CONTENT_TYPES[format], body };
}
