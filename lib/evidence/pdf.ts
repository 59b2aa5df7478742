import { printPdf } from "../analyzer";
import type { AccountContext } from "../auth/guard";
import { resolveBranding } from "../branding";
import { evidenceForReport } from "./read";
import { reportHtml } from "./report-html";

/**
 * GET /api/account/evidence/{id}/report.pdf: the record as one printed page (report-html.ts), printed by
 * the browser URL mode already runs, in the organization's branding as it is now. Nothing is cached:
 * printing takes a fraction of a second.
 */
export async function evidenceReport(
  ctx: Pick<AccountContext, "db" | "organization" | "settings" | "now">,
  id: string,
): Promise<Buffer> {
  const { record, png, google } = await evidenceForReport(ctx, id);
  const branding = await resolveBranding(ctx.db, ctx.organization.id);
  const html = reportHtml({ record, branding, png, google, printedAt: ctx.now() });
  return printPdf(html, { settings: ctx.settings });
}
