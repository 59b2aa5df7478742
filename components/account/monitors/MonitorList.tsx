import Link from "next/link";
import { Cell, ListHeader, rowClass } from "../ListGrid";
import { MonitorStatusBadge, StateBadge } from "./Badges";
import { LocalTime } from "../LocalTime";
import { STATES, type Monitor } from "./types";

const COLUMNS = "lg:grid-cols-[minmax(0,2.4fr)_8rem_minmax(0,1.4fr)_11rem_minmax(0,1fr)]";

/** The monitored pages: rows on a wide screen, cards on a phone. */
export function MonitorList({ monitors }: { monitors: Monitor[] }) {
  return (
    <div>
      <ListHeader columns={COLUMNS} labels={["Page", "Status", "Links", "Next check", "Tags"]} />
      <ul aria-label="Monitored pages">
        {monitors.map((monitor) => (
          <li
            key={monitor.id}
            className={`${rowClass} grid-cols-[auto_minmax(0,1fr)] ${COLUMNS}`}
            data-testid={`monitor-${monitor.url}`}
          >
            <Cell label="Page" quiet className="col-span-2 lg:col-span-1">
              <Link
                href={`/app/monitors/${monitor.id}`}
                className="font-medium text-blue-700 wrap-anywhere hover:underline dark:text-blue-300"
              >
                {monitor.url}
              </Link>
            </Cell>
            <Cell label="Status">
              <MonitorStatusBadge monitor={monitor} />
            </Cell>
            <Cell label="Links">
              <span className="flex flex-wrap gap-1">
                {STATES.map((state) => {
                  const count = monitor.links.filter((link) => link.state === state).length;
                  return count > 0 ? (
                    <span key={state} className="inline-flex items-center gap-1">
                      <StateBadge state={state} /> {count}
                    </span>
                  ) : null;
                })}
                {monitor.links.length === 0 && <span className="text-slate-600 dark:text-slate-400">no links</span>}
              </span>
            </Cell>
            <Cell label="Next check" className="col-span-2 lg:col-span-1">
              {monitor.paused ? "paused" : <LocalTime iso={monitor.nextCheckAt} />}
            </Cell>
            {monitor.tags.length > 0 && (
              <Cell label="Tags" className="col-span-2 break-words lg:col-span-1">
                {monitor.tags.join(", ")}
              </Cell>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
