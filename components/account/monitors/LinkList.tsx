import Link from "next/link";
import { LinkUptime } from "@/components/charts/LinkUptime";
import { UptimeBatches } from "@/components/charts/UptimeBatches";
import type { UptimeBatch } from "@/lib/schemas/stats";
import type { Answer } from "../answers";
import { Cell, ListHeader, rowClass } from "../ListGrid";
import { LocalTime } from "../LocalTime";
import { StateBadge } from "./Badges";
import { VerdictSummary } from "./Verdict";
import { relOfSeen, type TrackedLink } from "./types";

const COLUMNS = "lg:grid-cols-[minmax(0,1.7fr)_minmax(0,1.5fr)_7.5rem_minmax(0,1.6fr)_minmax(0,1.4fr)_minmax(0,1fr)]";

/**
 * The team's tracked links with the page each is on and their 90-day strips (the server's, or one request
 * a hundred links): rows on a wide screen, cards on a phone.
 */
export function LinkList({
  links,
  pages,
  uptime,
}: {
  links: TrackedLink[];
  pages: Map<string, string>;
  uptime: Answer<UptimeBatch>[];
}) {
  return (
    <div>
      <ListHeader columns={COLUMNS} labels={["Link to", "On page", "State", "Verdict", "As last seen", "Notes"]} />
      <ul aria-label="Tracked links">
        <UptimeBatches links={links} answers={uptime}>
          {(link, linkUptime) => {
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
                  {link.current ? (
                    <>
                      “{link.current.anchorText ?? ""}” · {relOfSeen(link.current)} ·{" "}
                      <LocalTime iso={link.lastSeenAt} />
                    </>
                  ) : (
                    "never seen"
                  )}
                </Cell>
                {notes && (
                  <Cell label="Notes" className="col-span-2 break-words lg:col-span-1">
                    {notes}
                  </Cell>
                )}
                <LinkUptime uptime={linkUptime} label={link.target} className="col-span-2 lg:col-span-5" />
              </li>
            );
          }}
        </UptimeBatches>
      </ul>
    </div>
  );
}
