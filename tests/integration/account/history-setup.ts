import { randomUUID } from "node:crypto";
import { getTableColumns, sql, type Table } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { linkObservation, linkTransition, monitor, monitorCheck, trackedLink } from "@/lib/db/schema";
import type { LinkState } from "@/lib/schemas/monitors";

/**
 * History written straight into the database, as checks over past days would have left it: monitors,
 * tracked links created at given times, and each state change as a check (monitor_check), an
 * observation of the link (its first check) and a transition. The history suites then read it back
 * through the routes, whose clock is the real one, so times are given relative to the UTC day of now.
 */

export const DAY = 86_400_000;

/**
 * INSERT of the given columns only. Drizzle's own insert names every column of today's schema, which a
 * database migrated only part of the way (the migration suites) does not have yet.
 */
async function insertGiven<T extends Table>(database: Database, table: T, values: T["$inferInsert"]): Promise<void> {
  const columns = getTableColumns(table);
  const given = Object.entries(values as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const names = given.map(([key]) => sql.identifier(columns[key]!.name));
  const params = given.map(([key, value]) => sql.param(value, columns[key]));
  await database.db.execute(
    sql`INSERT INTO ${table} (${sql.join(names, sql`, `)}) VALUES (${sql.join(params, sql`, `)})`,
  );
}

/** `hours` after the start (00:00Z) of the UTC day `daysAgo` days before today. */
export function at(daysAgo: number, hours = 12): Date {
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`).getTime();
  return new Date(today - daysAgo * DAY + hours * 3_600_000);
}

export async function insertMonitor(
  database: Database,
  organizationId: string,
  options: { url?: string; tags?: string[]; createdAt?: Date; lastCheckedAt?: Date | null } = {},
): Promise<string> {
  const id = randomUUID();
  const createdAt = options.createdAt ?? at(400);
  await insertGiven(database, monitor, {
    id,
    organizationId,
    url: options.url ?? `https://placements.example/${id}`,
    intervalMinutes: 1440,
    tags: options.tags ?? [],
    status: "ok",
    nextCheckAt: new Date(Date.now() + DAY),
    lastCheckedAt: options.lastCheckedAt ?? null,
    createdAt,
    updatedAt: createdAt,
  });
  return id;
}

export interface LinkStep {
  at: Date;
  to: LinkState;
}

/**
 * A tracked link created at `createdAt` (pending) whose checks moved it through `steps`: each step a
 * check, its observation and a transition from the state before. Answers the link's id.
 */
export async function insertLinkWithHistory(
  database: Database,
  organizationId: string,
  monitorId: string,
  createdAt: Date,
  steps: readonly LinkStep[] = [],
  extra: Partial<typeof trackedLink.$inferInsert> = {},
): Promise<string> {
  const id = randomUUID();
  const state = steps.at(-1)?.to ?? "pending";
  await insertGiven(database, trackedLink, {
    id,
    organizationId,
    monitorId,
    target: `https://mysite.example/${id}`,
    match: "exact",
    source: "manual",
    state,
    createdAt,
    updatedAt: createdAt,
    ...extra,
  });
  let before: LinkState = "pending";
  for (const step of steps) {
    const checkId = randomUUID();
    await insertGiven(database, monitorCheck, {
      id: checkId,
      organizationId,
      monitorId,
      trigger: "manual",
      startedAt: step.at,
      finishedAt: step.at,
      outcome: "ok",
      pageStatus: 200,
      linksFound: 1,
      createdAt: step.at,
    });
    await insertGiven(database, linkObservation, {
      id: randomUUID(),
      organizationId,
      checkId,
      trackedLinkId: id,
      observed: step.to,
      link: null,
      stateBefore: before,
      stateAfter: step.to,
      createdAt: step.at,
    });
    await insertGiven(database, linkTransition, {
      id: randomUUID(),
      organizationId,
      trackedLinkId: id,
      monitorId,
      checkId,
      fromState: before,
      toState: step.to,
      before: null,
      after: null,
      createdAt: step.at,
    });
    before = step.to;
  }
  return id;
}
