/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or null for any other error. Drizzle wraps
 * driver errors (`cause`), and pg and PGlite both report `code` and `constraint`, so the chain is walked.
 * Services use it to answer a race the pre-check could not see (two instances saving at once) as a 409.
 */
export function uniqueViolation(error: unknown): string | null {
  for (
    let current: unknown = error, depth = 0;
    typeof current === "object" && current !== null && depth < 5;
    depth += 1
  ) {
    const record = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (record.code === "23505") return typeof record.constraint === "string" ? record.constraint : "";
    current = record.cause;
  }
  return null;
}
