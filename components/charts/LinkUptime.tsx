"use client";

import { useEffect, useState } from "react";
import type { Uptime } from "@/lib/schemas/stats";
import { loadUptime } from "./uptime-loader";
import { UptimeStrip } from "./UptimeStrip";

/**
 * A tracked link's 90-day strip and live share in the app's client-rendered lists (monitor page, Links
 * page), fetched with the list's other strips in one request (uptime-loader.ts). A new `version` (the
 * link's state and last sighting, say) reloads it after a check.
 */
export function LinkUptime({
  linkId,
  label,
  version = "",
  className = "",
}: {
  linkId: string;
  label: string;
  version?: string;
  className?: string;
}) {
  const [uptime, setUptime] = useState<Uptime | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void loadUptime(linkId).then((result) => {
      if (!live) return;
      if (result) setUptime(result);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [linkId, version]);
  return (
    <div className={`min-w-0 ${className}`} data-testid="link-uptime">
      <span className="block text-xs font-medium text-slate-600 dark:text-slate-400">Last 90 days</span>
      {uptime ? (
        <UptimeStrip uptime={uptime} label={label} />
      ) : (
        <span className="block h-4 text-xs text-slate-600 dark:text-slate-400">
          {failed ? "History unavailable." : "Loading history…"}
        </span>
      )}
    </div>
  );
}
