/** Times in a client report: UTC, spelled out, the same for every reader ("May 4, 2026, 13:05 UTC"). */
export function utcTime(iso: string | null): string {
  if (!iso) return "—";
  const date = new Date(iso);
  const day = date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

/** Only http(s) URLs become links in a report (an audited page's javascript: href must stay text). */
export function isWebUrl(href: string): boolean {
  return /^https?:\/\//i.test(href);
}
