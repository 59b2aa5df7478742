import Link from "next/link";
import { LinkUptime } from "@/components/charts/LinkUptime";
import { Cell, ListHeader, rowClass } from "../ListGrid";
import { StateBadge } from "./Badges";
import { VerdictSummary } from "./Verdict";
import { relOfSeen, when, type TrackedLink } from "./types";

const COLUMNS = "lg:grid-cols-[minmax(0,1.7fr)_minmax(0,1.5fr)_7.5rem_minmax(0,1.6fr)_minmax(0,1.4fr)_minmax(0,1fr)]";

/** The team's tracked links with the page each is on: rows on a wide screen, cards on a phone. */
export function LinkList({ links, pages }: { links: TrackedLink[]; pages: Map<string, string> }) {
  return (
    <div>
      <ListHeader columns={COLUMNS} labels={["Link to", "On page", "State", "Verdict", "As last seen", "Notes"]} />
      <ul aria-label="Tracked links">
        {links.map((link) => {
          const notes = [
            link.notes,
            link.cost !== null ? `cost ${link.cost}` : null,
            link.expiresOn ? `until ${link.expiresOn}` : null,
          ]
            .filter(Boolean)
            .join(" · ");
          return (
            <li
              key={link.id}
              className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`}
              data-testid={`tracked-${link.target}`}
            >
              <Cell label="Link to" quiet className="col-span-2 font-medium wrap-anywhere lg:col-span-1">
                {link.target}
              </Cell>
              <Cell label="On page" className="col-span-2 wrap-anywhere lg:col-span-1">
                <Link
                  href={`/app/monitors/${link.monitorId}`}
                  className="text-blue-700 hover:underline dark:text-blue-300"
                >
                  {pages.get(link.monitorId) ?? "open page"}
                </Link>
              </Cell>
              <Cell label="State" quiet>
                <StateBadge state={link.state} />
              </Cell>
              <Cell label="Verdict" className="col-span-2 lg:col-span-1">
                <VerdictSummary verdict={link.verdict} />
              </Cell>
              <Cell label="As last seen" className="break-words">
                {link.current
                  ? `“${link.current.anchorText ?? ""}” · ${relOfSeen(link.current)} · ${when(link.lastSeenAt)}`
                  : "never seen"}
              </Cell>
              {notes && (
                <Cell label="Notes" className="col-span-2 break-words lg:col-span-1">
                  {notes}
                </Cell>
              )}
              <LinkUptime
                linkId={link.id}
                label={link.target}
                version={`${link.state} ${link.lastSeenAt}`}
                className="col-span-2 lg:col-span-5"
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
