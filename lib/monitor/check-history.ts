import { eq } from "drizzle-orm";
import type { AccountContext } from "../auth/guard";
import { keysetPage, type PageRequest } from "../db/keyset";
import { monitorCheck } from "../db/schema";
import { findMonitor } from "./monitors";
import { owned } from "./scope";
import { checkView } from "./views";

/** GET /monitors/{id}/checks: newest first, a page at a time. */
export async function listChecks(ctx: AccountContext, monitorId: string, page: PageRequest) {
  const row = await findMonitor(ctx, monitorId);
  const keys = { createdAt: monitorCheck.createdAt, id: monitorCheck.id };
  const where = owned(monitorCheck, ctx.organization.id, eq(monitorCheck.monitorId, row.id));
  return keysetPage(ctx.db.select().from(monitorCheck).$dynamic(), { keys, direction: "desc", where, page }, checkView);
}
