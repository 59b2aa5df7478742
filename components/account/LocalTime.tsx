"use client";

import { utcTime } from "@/components/audits/AuditsTable";
import { useHydrated } from "./useHydrated";

/**
 * A time as the reader's locale and time zone show it, or a dash. The server knows neither, so it (and
 * the hydrating browser, to match it) writes the time in UTC; the local form follows at once.
 */
export function LocalTime({ iso }: { iso: string | null }) {
  const hydrated = useHydrated();
  if (!iso) return "—";
  return hydrated ? new Date(iso).toLocaleString() : utcTime(iso);
}
