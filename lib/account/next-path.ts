/** A same-site path to go to after signing in (`?next=`); anything else (another site, //host) is /app. */
export function safeNextPath(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/app";
  return raw;
}
