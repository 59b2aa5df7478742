import { Panel } from "@/components/analyzer/Panel";
import { StatsSummary } from "@/components/analyzer/StatsSummary";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import { ImageBadge, RelBadges, SignalBadges, StatusBadge, TypeBadge } from "@/components/analyzer/badges";
import type { AuditReport } from "@/lib/schemas/share-report";
import { isWebUrl, utcTime } from "./format";
import { Pager } from "./Pager";

const COLUMNS = "lg:grid-cols-[3rem_minmax(0,1.2fr)_minmax(0,1.8fr)_minmax(0,1fr)_4.5rem]";

/** An audit report: the saved audit's stats and its links, a page at a time (no snapshot). */
export function AuditReportView({ report, hrefOf }: { report: AuditReport; hrefOf: (page: number) => string }) {
  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {report.audit.pageTitle ? <>“{report.audit.pageTitle}”, </> : null}audited {utcTime(report.audit.auditedAt)}.
      </p>
      <StatsSummary stats={report.audit.stats} />
      <Panel id="report-links" title={`Links on the page (${report.total.toLocaleString("en-US")})`}>
        {report.links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">The page had no links.</p>
        ) : (
          <div>
            <ListHeader columns={COLUMNS} labels={["#", "Anchor text", "Link to", "Type and rel", "Status"]} />
            <ul aria-label="Links on the page">
              {report.links.map((link) => (
                <li
                  key={link.position ?? link.href}
                  className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`}
                  data-testid="report-audit-link"
                >
                  <Cell label="Position" className="tabular-nums">
                    {link.position}
                  </Cell>
                  <Cell label="Anchor text" className="break-words">
                    <span className="flex items-start gap-1.5">
                      {link.isImage && <ImageBadge />}
                      {link.anchorText ?? (
                        <span className="italic text-slate-600 dark:text-slate-400">no anchor text</span>
                      )}
                    </span>
                  </Cell>
                  <Cell label="Link to" className="col-span-2 wrap-anywhere lg:col-span-1">
                    {isWebUrl(link.href) ? (
                      <a
                        href={link.href}
                        rel="nofollow noopener noreferrer"
                        className="text-blue-700 hover:underline dark:text-blue-300"
                      >
                        {link.href}
                      </a>
                    ) : (
                      link.href || "(empty)"
                    )}
                  </Cell>
                  <Cell label="Type and rel">
                    <span className="flex flex-wrap gap-1">
                      <TypeBadge type={link.linkType} />
                      {link.linkType !== "ignored" && <RelBadges link={link} />}
                      <SignalBadges signals={link.signals} />
                    </span>
                  </Cell>
                  <Cell label="Status">
                    <StatusBadge status={link.httpStatus} />
                  </Cell>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="mt-4">
          <Pager page={report.page} pages={report.pages} total={report.total} hrefOf={hrefOf} noun="links" />
        </div>
      </Panel>
    </>
  );
}
