"use client";

import { api } from "@/components/account/api";
import { MAX_UPTIME_IDS, type Uptime, type UptimeBatch } from "@/lib/schemas/stats";

/**
 * The strips of a list come in one request: every strip asks for its link, and the asks of one moment
 * (a list rendering its rows) go out together as GET /api/account/links/uptime?ids=… (100 at most a
 * request). A link the answer leaves out (deleted meanwhile) resolves to null.
 */

type Waiter = { resolve: (uptime: Uptime | null) => void };
let pending = new Map<string, Waiter[]>();
let timer: ReturnType<typeof setTimeout> | null = null;

async function flush(batch: Map<string, Waiter[]>): Promise<void> {
  const ids = [...batch.keys()];
  for (let start = 0; start < ids.length; start += MAX_UPTIME_IDS) {
    const part = ids.slice(start, start + MAX_UPTIME_IDS);
    const result = await api<UptimeBatch>(
      "GET",
      `/api/account/links/uptime?days=90&ids=${part.map(encodeURIComponent).join(",")}`,
    );
    const found = new Map(result.ok ? result.data.items.map(({ id, ...uptime }) => [id, uptime] as const) : []);
    for (const id of part) for (const waiter of batch.get(id) ?? []) waiter.resolve(found.get(id) ?? null);
  }
}

/** The 90-day uptime of a tracked link, fetched with the others asked for in the same few milliseconds. */
export function loadUptime(linkId: string): Promise<Uptime | null> {
  return new Promise((resolve) => {
    pending.set(linkId, [...(pending.get(linkId) ?? []), { resolve }]);
    timer ??= setTimeout(() => {
      const batch = pending;
      pending = new Map();
      timer = null;
      void flush(batch);
    }, 10);
  });
}
