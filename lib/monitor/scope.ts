import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { ApiError } from "../errors";

/**
 * Tenant scope in one place: every query of monitoring data goes through `owned`,
 * which puts the organization first in the WHERE, so a service cannot reach another organization's row by
 * forgetting a condition. Another organization's ids then read exactly like unknown ones (404).
 */
export function owned(
  table: { organizationId: PgColumn },
  organizationId: string,
  ...conditions: Array<SQL | undefined>
): SQL {
  return and(eq(table.organizationId, organizationId), ...conditions) as SQL;
}

/** The 404 of every id that is not in the active organization. */
export function notFound(what: "monitor" | "tracked link" | "audit"): ApiError {
  return new ApiError("NOT_FOUND", `No ${what} with this id in your organization.`, {
    hint: "Use an id from the lists of your active organization.",
  });
}
