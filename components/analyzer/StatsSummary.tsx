import type { Stats } from "@/lib/api/schemas";

const TILES: { key: keyof Stats; label: string; accent: string; help: string }[] = [
  { key: "total", label: "Total", accent: "border-slate-400", help: "Every a[href] and area[href], in document order" },
  { key: "internal", label: "Internal", accent: "border-slate-400", help: "Same registrable domain as the page" },
  { key: "external", label: "External", accent: "border-indigo-500", help: "Other http(s) sites" },
  {
    key: "ignored",
    label: "Ignored",
    accent: "border-slate-300 dark:border-slate-600",
    help: "mailto:, tel:, javascript:, same-page #fragments, empty",
  },
  {
    key: "follow",
    label: "Follow",
    accent: "border-emerald-500",
    help: "Internal and external links without nofollow, sponsored or ugc",
  },
  { key: "nofollow", label: "Nofollow", accent: "border-amber-500", help: "rel=nofollow, or a robots meta nofollow" },
  { key: "sponsored", label: "Sponsored", accent: "border-violet-500", help: "rel=sponsored" },
  { key: "ugc", label: "UGC", accent: "border-sky-500", help: "rel=ugc" },
  {
    key: "broken",
    label: "Broken",
    accent: "border-red-500",
    help: "No response, or HTTP 4xx/5xx except 401, 403 and 429",
  },
];

/** The nine stats of the API, as a definition list of compact tiles. */
export function StatsSummary({ stats }: { stats: Stats }) {
  return (
    <dl aria-label="Link statistics" className="grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-9">
      {TILES.map((tile) => {
        const alarming = tile.key === "broken" && stats.broken > 0;
        return (
          <div
            key={tile.key}
            title={tile.help}
            data-stat={tile.key}
            className={`rounded-lg border-l-4 bg-white px-3 py-2 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800 ${tile.accent} ${alarming ? "bg-red-50 dark:bg-red-950/50" : ""}`}
          >
            <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{tile.label}</dt>
            <dd className={`text-xl font-semibold tabular-nums ${alarming ? "text-red-700 dark:text-red-300" : ""}`}>
              {stats[tile.key].toLocaleString("en-US")}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
