"use client";

import { useEffect, useState } from "react";
import { api } from "@/components/account/api";
import type { Uptime } from "@/lib/schemas/stats";
import { UptimeStrip } from "./UptimeStrip";

/** At most this many uptime requests at once: a list of 100 links does not queue 100 fetches in the browser at once. */
const MAX_AT_ONCE = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/**
 * A tracked link's 90-day strip and live share in the app's client-rendered lists (monitor page, Links
 * page), from GET /api/account/links/{id}/uptime. `version` (e.g. the link's state and last sighting) changes reload it after a check.
 */
export function LinkUptime({ linkId, label, version = "", className = "" }: { linkId: string; label: string; version?: string; className?: string }) {
  const [uptime, setUptime] = useState<Uptime | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void inTurn(() => api<Uptime>("GET", `/api/account/links/${encodeURIComponent(linkId)}/uptime?days=90`)).then((result) => {
      if (!live) return;
      if (result.ok) setUptime(result.data);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [linkId, version]);
  return (
    <div className={`min-w-0 ${className}`} data-testid="link-uptime">
      <span className="block text-xs font-medium text-slate-600 dark:text-slate-400">Last 90 days</span>
      {uptime ? <UptimeStrip uptime={uptime} label={label} /> : <span className="block h-4 text-xs text-slate-600 dark:text-slate-400">{failed ? "History unavailable." : "Loading history…"}</span>}
    </div>
  );
}
