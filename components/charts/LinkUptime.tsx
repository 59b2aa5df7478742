import type { Uptime } from "@/lib/schemas/stats";
import { UptimeStrip } from "./UptimeStrip";

/**
 * A tracked link's 90-day strip and live share in the app's lists (monitor page, Links page): `uptime`
 * is undefined while its batch is read (UptimeBatches.tsx), null when the answer has none for it.
 */
export function LinkUptime({
  uptime,
  label,
  className = "",
}: {
  uptime: Uptime | null | undefined;
  label: string;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`} data-testid="link-uptime">
      <span className="block text-xs font-medium text-slate-600 dark:text-slate-400">Last 90 days</span>
      {uptime ? (
        <UptimeStrip uptime={uptime} label={label} />
      ) : (
        <span className="block h-4 text-xs text-slate-600 dark:text-slate-400">
          {uptime === null ? "History unavailable." : "Loading history…"}
        </span>
      )}
    </div>
  );
}
