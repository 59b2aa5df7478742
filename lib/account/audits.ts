import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { and, eq, or } from "drizzle-orm";
import { inspectHtml, inspectUrl, parsePublicUrl, renderGoogleView, type PageReport } from "../analyzer";
import type { ParsedAnalyzeRequest } from "../api/analyze-request";
import type { Audit, AuditSummary } from "../schemas/audits";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { audit } from "../db/schema";
import { ApiError } from "../errors";
import { loadDomainGroups } from "./group-lookup";
import { insertLinks, readSignedInLinks } from "./audit-links";
import { pageSignals, readingOf, withGoogleView, type GoogleReading } from "../verdict";
import { UNKNOWN_SIGNALS, type PageSignals } from "../schemas/verdict";
import { CRAWLER_AGENTS, crawlersOf } from "../schemas/crawlers";
import { googleViewOf } from "../schemas/google-view";
import { storableText, toStoredLink } from "../db/stored-link";
import { spendAuditUnit } from "./audit-quota";

/**
 * Saved audits (docs/spec/account-api.md "Saved audits"): the public analyzer's render path, sanitizer and
 * classifier through its front door, with the organization's domain groups, under the organization's
 * daily quota instead of the public per-IP limit, bot check and demo budget. An audit is stored once
 * and never changes: its links as audit_link rows, its snapshot (and, in paste mode, the pasted HTML a
 * re-run needs) gzip-compressed.
 */

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Every column but the compressed blobs, which only the snapshot and a re-run read. */
const columns = {
  id: audit.id,
  organizationId: audit.organizationId,
  createdById: audit.createdById,
  createdByEmail: audit.createdByEmail,
  mode: audit.mode,
  requestedUrl: audit.requestedUrl,
  url: audit.url,
  domain: audit.domain,
  title: audit.title,
  stats: audit.stats,
  page: audit.page,
  createdAt: audit.createdAt,
};
export type AuditRow = Omit<typeof audit.$inferSelect, "snapshotGzip" | "inputHtmlGzip">;

export interface RunOptions {
  requestId?: string;
  /** The request's signal: a client that goes away cancels the analysis (and nothing is saved). */
  signal?: AbortSignal;
}

/** Page signals as stored: the URLs a page wrote, with U+0000 replaced (see storableText). */
function storedPage(page: PageSignals): PageSignals {
  return { ...page, finalUrl: storableText(page.finalUrl), canonicalUrl: storableText(page.canonicalUrl) };
}

/** An audit and the quota headers of the unit it spent. */
export interface CreatedAudit {
  audit: Audit;
  headers: Record<string, string>;
}

const notFound = () =>
  new ApiError("NOT_FOUND", "No audit with this id in your organization.", {
    hint: "Use an id from GET /api/account/audits.",
  });

function summaryOf(row: AuditRow): AuditSummary {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    mode: row.mode,
    url: row.url,
    domain: row.domain,
    title: row.title,
    stats: row.stats,
  };
}

/** The Audit of a row and its links (GET, POST, re-run, and the JSON export's head). */
export function auditOf(row: AuditRow, links: Audit["links"]): Audit {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    createdBy: { id: row.createdById, email: row.createdByEmail },
    mode: row.mode,
    requestedUrl: row.requestedUrl,
    url: row.url,
    domain: row.domain,
    title: row.title,
    stats: row.stats,
    // jsonb keeps no key order, and audits saved before crawler access have none: the agents' order, or null.
    page: row.page
      ? { ...row.page, crawlers: crawlersOf(row.page.crawlers), googleView: googleViewOf(row.page.googleView) }
      : null,
    links,
  };
}

/** The audit row of the caller's organization, or 404 (another organization's ids are unknown here). */
export async function findAudit(
  ctx: OrganizationScope,
  id: string,
  db: Pick<Db, "select"> = ctx.db,
): Promise<AuditRow> {
  const [row] = await db
    .select(columns)
    .from(audit)
    .where(and(eq(audit.organizationId, ctx.organization.id), eq(audit.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** One compressed blob of an audit already found in the organization. */
async function readBlob(
  db: Pick<Db, "select">,
  id: string,
  blob: "snapshotGzip" | "inputHtmlGzip",
): Promise<string | null> {
  const [row] = await db.select({ data: audit[blob] }).from(audit).where(eq(audit.id, id)).limit(1);
  return row?.data ? (await gunzipAsync(row.data)).toString("utf8") : null;
}

/** Runs the analysis of one input with today's groups, then stores it, spending one unit of the quota. */
async function runAndStore(
  db: Db,
  ctx: AccountContext,
  input: ParsedAnalyzeRequest,
  options: RunOptions,
  rerunOf?: string,
): Promise<CreatedAudit> {
  const config = getConfig();
  const organizationId = ctx.organization.id;
  // Read once: a group edited while this audit runs applies from the next audit on.
  const groups = await loadDomainGroups(db, organizationId);
  const { result, headers } = await spendAuditUnit(db, organizationId, config.ORG_AUDITS_PER_DAY, async () => {
    const analyze = {
      settings: config,
      groups,
      clientKey: `org:${organizationId}`,
      signal: options.signal,
      requestId: options.requestId,
      signals: true,
      crawlers: CRAWLER_AGENTS,
    };
    const report =
      input.mode === "paste"
        ? await inspectHtml({ html: input.html, pageUrl: `https://${input.domain}/` }, analyze)
        : await inspectUrl(input.url, analyze);
    // A URL audit renders Google's view once (google-view.md §2); paste mode renders nothing.
    const google = input.mode === "url" ? readingOf(await renderGoogleView(input.url, analyze)) : null;
    return store(db, ctx, input, report, google, rerunOf);
  });
  return { audit: result, headers };
}

async function store(
  db: Db,
  ctx: AccountContext,
  input: ParsedAnalyzeRequest,
  report: PageReport,
  google: GoogleReading | null,
  rerunOf: string | undefined,
): Promise<Audit> {
  const { analysis, page } = report;
  const signals = withGoogleView(analysis.links, report.linkSignals, google);
  const [snapshotGzip, inputHtmlGzip] = await Promise.all([
    gzipAsync(analysis.sanitizedHtml),
    input.mode === "paste" ? gzipAsync(input.html) : Promise.resolve(null),
  ]);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(audit)
      .values({
        id: randomUUID(),
        organizationId: ctx.organization.id,
        createdById: ctx.user.id,
        createdByEmail: ctx.user.email,
        mode: input.mode,
        requestedUrl: input.mode === "url" ? input.url.href : analysis.url,
        url: analysis.url,
        domain: analysis.domain,
        title: storableText(page.title),
        stats: analysis.stats,
        page: storedPage(pageSignals(page, google?.view ?? null)),
        snapshotGzip,
        inputHtmlGzip,
      })
      .returning(columns);
    if (!inserted) throw new Error("audit insert returned nothing");
    await insertLinks(tx, inserted.id, analysis.links, signals);
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "audit.create",
      target: { type: "audit", id: inserted.id },
      details: { mode: input.mode, url: analysis.url, links: analysis.stats.total, ...(rerunOf ? { rerunOf } : {}) },
    });
    return inserted;
  });
  // The links as stored: the analyzer's, with only U+0000 replaced (see storableText).
  return auditOf(
    row,
    analysis.links.map((link, index) => ({
      ...toStoredLink(link),
      signals: signals[index] ?? UNKNOWN_SIGNALS,
    })),
  );
}

/** POST /api/account/audits: a new audit of a URL or of pasted HTML. */
export async function createAudit(
  ctx: AccountContext,
  input: ParsedAnalyzeRequest,
  options: RunOptions = {},
): Promise<CreatedAudit> {
  const { db } = ctx;
  return runAndStore(db, ctx, input, options);
}

/**
 * POST /api/account/audits/{id}/rerun: the same input again (the URL as first requested, or the stored
 * paste and its domain) with today's domain groups; a new audit, the old one unchanged.
 */
export async function rerunAudit(ctx: AccountContext, id: string, options: RunOptions = {}): Promise<CreatedAudit> {
  const { db } = ctx;
  const row = await findAudit(ctx, id);
  let input: ParsedAnalyzeRequest;
  if (row.mode === "url") {
    // The URL policy may have changed since (ALLOW_PRIVATE_HOSTS): it is applied again.
    input = { mode: "url", url: parsePublicUrl(row.requestedUrl, getConfig().ALLOW_PRIVATE_HOSTS) };
  } else {
    const html = await readBlob(db, row.id, "inputHtmlGzip");
    if (html === null) throw new Error(`paste-mode audit ${row.id} has no stored input`);
    input = { mode: "paste", html, domain: row.domain };
  }
  return runAndStore(db, ctx, input, options, row.id);
}

/** GET /api/account/audits/{id}; `snapshot` adds the sanitized snapshot. */
export async function getAudit(ctx: AccountContext, id: string, include: { snapshot?: boolean } = {}): Promise<Audit> {
  const { db } = ctx;
  const row = await findAudit(ctx, id);
  const view = auditOf(row, await readSignedInLinks(db, row.id));
  if (include.snapshot) view.sanitizedHtml = (await readBlob(db, row.id, "snapshotGzip")) ?? "";
  return view;
}

/**
 * The `?url=` filter's value as stored: URLs are kept in WHATWG serialization, so a filter that parses
 * as a URL is serialized the same way (`https://Example.com` finds `https://example.com/`).
 */
function normalizeUrlFilter(value: string): string {
  return URL.parse(value.trim())?.href ?? value;
}

/** GET /api/account/audits: newest first, a page at a time; `url` matches the final or the requested URL exactly. */
export async function listAudits(ctx: AccountContext, query: PageRequest & { url?: string }) {
  const { db } = ctx;
  const keys = { createdAt: audit.createdAt, id: audit.id };
  const url = query.url === undefined ? undefined : normalizeUrlFilter(query.url);
  const where = and(
    eq(audit.organizationId, ctx.organization.id),
    url === undefined ? undefined : or(eq(audit.url, url), eq(audit.requestedUrl, url)),
  );
  return keysetPage(
    db.select(columns).from(audit).$dynamic(),
    { keys, direction: "desc", where, page: query },
    summaryOf,
  );
}

/** DELETE /api/account/audits/{id}: the audit and its links; the activity log keeps the fact. */
export async function deleteAudit(ctx: AccountContext, id: string): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const row = await findAudit(ctx, id, tx);
    await tx.delete(audit).where(eq(audit.id, row.id));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "audit.delete",
      target: { type: "audit", id: row.id },
      details: { mode: row.mode, url: row.url },
    });
  });
}
