import { printPdf } from "../analyzer";
import type { AccountContext } from "../auth/guard";
import { evidenceForReport } from "./read";
import { reportHtml } from "./report-html";

/**
 * GET /api/account/evidence/{id}/report.pdf: the record as one printed page (report-html.ts), printed by
 * the browser URL mode already runs. Nothing is cached: the record never changes, and printing takes a
 * fraction of a second.
 */
export async function evidenceReport(
  ctx: Pick<AccountContext, "db" | "organization" | "settings" | "now">,
  id: string,
): Promise<Buffer> {
  const { record, png, google } = await evidenceForReport(ctx, id);
  const html = reportHtml({ record, organizationName: ctx.organization.name, png, google, printedAt: ctx.now() });
  return printPdf(html, { settings: ctx.settings });
}
