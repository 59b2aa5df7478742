import { Panel } from "@/components/analyzer/Panel";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import { StateBadge } from "@/components/account/monitors/Badges";
import { UptimeStrip } from "@/components/charts/UptimeStrip";
import { STATE_LABEL } from "@/components/charts/states";
import { LINK_STATES } from "@/lib/schemas/monitors";
import type { LinksReport, ShareLinkRow } from "@/lib/schemas/share-report";
import { REASON_WORDS, VERDICT_LABELS, type Verdict } from "@/lib/schemas/verdict";
import { isWebUrl, utcTime } from "./format";
import { Pager } from "./Pager";

const COLUMNS = "lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1.5fr)_7.5rem_7rem_minmax(0,1fr)]";

/** A verdict in words with its reasons in words, or a dash until the link has one. */
function VerdictText({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  return (
    <span data-verdict={verdict.value}>
      <span className="font-semibold">{VERDICT_LABELS[verdict.value]}</span>
      {verdict.reasons.length > 0 && (
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {verdict.reasons.map((reason) => REASON_WORDS[reason]).join("; ")}
        </span>
      )}
    </span>
  );
}

function Row({ link }: { link: ShareLinkRow }) {
  return (
    <li className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`} data-testid="report-link">
      <Cell label="Page" className="col-span-2 wrap-anywhere lg:col-span-1">
        {isWebUrl(link.pageUrl) ? (
          <a
            href={link.pageUrl}
            rel="nofollow noopener noreferrer"
            className="text-blue-700 hover:underline dark:text-blue-300"
          >
            {link.pageUrl}
          </a>
        ) : (
          link.pageUrl
        )}
      </Cell>
      <Cell label="Link to" className="col-span-2 font-medium wrap-anywhere lg:col-span-1">
        {link.target}{" "}
        {link.match !== "exact" && (
          <span className="font-normal text-slate-600 dark:text-slate-400">({link.match})</span>
        )}
      </Cell>
      <Cell label="State" quiet>
        <StateBadge state={link.state} />
      </Cell>
      <Cell label="Verdict">
        <VerdictText verdict={link.verdict} />
      </Cell>
      <Cell label="Last checked" className="col-span-2 lg:col-span-1">
        {utcTime(link.lastCheckedAt)}
      </Cell>
      <div className="col-span-2 min-w-0 lg:col-span-5">
        <span className="block text-xs font-medium text-slate-600 dark:text-slate-400">Last 90 days</span>
        <UptimeStrip uptime={link.uptime} label={link.target} />
      </div>
    </li>
  );
}

/** A tag or monitor report: the links in scope counted by state, then a page of them with their strips. */
export function LinksReportView({ report, hrefOf }: { report: LinksReport; hrefOf: (page: number) => string }) {
  return (
    <>
      <dl aria-label="Tracked links by state" className="grid grid-cols-[repeat(auto-fit,minmax(6.5rem,1fr))] gap-2">
        <div className="rounded-lg bg-white px-3 py-2 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">Tracked links</dt>
          <dd className="text-xl font-semibold tabular-nums">{report.total.toLocaleString("en-US")}</dd>
        </div>
        {LINK_STATES.filter((state) => (report.states[state] ?? 0) > 0 || state === "live").map((state) => (
          <div
            key={state}
            className="rounded-lg bg-white px-3 py-2 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
            data-stat={state}
          >
            <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{STATE_LABEL[state]}</dt>
            <dd className="text-xl font-semibold tabular-nums">
              {(report.states[state] ?? 0).toLocaleString("en-US")}
            </dd>
          </div>
        ))}
      </dl>
      <Panel
        id="report-links"
        title={report.total === 0 ? "Tracked links" : `Tracked links (${report.total.toLocaleString("en-US")})`}
      >
        {report.links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No tracked link is in this report yet.</p>
        ) : (
          <div>
            <ListHeader columns={COLUMNS} labels={["Page", "Link to", "State", "Verdict", "Last checked"]} />
            <ul aria-label="Tracked links">
              {report.links.map((link, index) => (
                <Row key={`${link.pageUrl} ${link.target} ${index}`} link={link} />
              ))}
            </ul>
          </div>
        )}
        <div className="mt-4">
          <Pager page={report.page} pages={report.pages} total={report.total} hrefOf={hrefOf} noun="tracked links" />
        </div>
      </Panel>
    </>
  );
}
