"use client";

import { useEffect, useState } from "react";

/**
 * The current time in epoch ms, refreshed every `intervalMs` while `active`. The first value is
 * `initial` (a time captured in an event handler), so render stays pure.
 */
export function useNow(active: boolean, initial: number, intervalMs = 250): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [active, intervalMs]);
  return Math.max(now, initial);
}
