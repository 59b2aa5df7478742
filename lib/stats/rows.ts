/** The rows of a raw query, whichever driver ran it (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error("query answered no rows array");
  return rows as T[];
}
