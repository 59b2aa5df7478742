import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as linkHistory } from "@/app/api/account/links/[id]/history/route";
import type { Database } from "@/lib/db";
import { recentStateChanges } from "@/lib/monitor/state-changes";
import type { Transition } from "@/lib/schemas/monitors";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { at, insertLinkWithHistory, insertMonitor, type LinkStep } from "./history-setup";
import { makeSoloOwner } from "./team-setup";

/**
 * The monitor page's timeline reads its links' state changes in one query (lib/monitor/state-changes.ts):
 * for each link the same changes GET /api/account/links/{id}/history?limit=N answers, newest first, on
 * both backends; another organization's links have none.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(async () => {
  await closeAll();
});

/** Live and missing by turns, a day apart, from `days` days ago. */
const flapping = (days: number): LinkStep[] =>
  Array.from({ length: days }, (_, index) => ({ at: at(days - index, 9), to: index % 2 === 0 ? "live" : "missing" }));

describe.each(BACKENDS)("recent state changes (%s)", (backend) => {
  let database: Database;
  let cookie = "";
  let scope: { db: Database["db"]; organization: { id: string; name: string; slug: string } };
  const ids = { busy: "", calm: "", fresh: "", theirs: "" };

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    const mine = await makeSoloOwner(`sc-${backend}`);
    const other = await makeSoloOwner(`sco-${backend}`);
    cookie = mine.cookie;
    scope = { db: database.db, organization: { id: mine.organizationId, name: "mine", slug: "mine" } };
    const page = await insertMonitor(database, mine.organizationId);
    ids.busy = await insertLinkWithHistory(database, mine.organizationId, page, at(40), flapping(7));
    // Its one change falls between two of the busy link's, so the merge order is tested too.
    ids.calm = await insertLinkWithHistory(database, mine.organizationId, page, at(40), [
      { at: at(3, 12), to: "live" },
    ]);
    ids.fresh = await insertLinkWithHistory(database, mine.organizationId, page, at(0));
    const theirPage = await insertMonitor(database, other.organizationId);
    ids.theirs = await insertLinkWithHistory(database, other.organizationId, theirPage, at(40), flapping(3));
  });

  async function historyOf(linkId: string, limit: number): Promise<Transition[]> {
    const answer = await call(linkHistory, "GET", `/api/account/links/${linkId}/history?limit=${limit}`, {
      cookie,
      params: { id: linkId },
    });
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { items: Transition[] }).items;
  }

  it("answers each link's newest changes, as many as asked, newest first: what the history route answers", async () => {
    const changes = await recentStateChanges(scope, [ids.busy, ids.calm, ids.fresh], 3);
    const expected = [...(await historyOf(ids.busy, 3)), ...(await historyOf(ids.calm, 3))].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
    );
    expect(changes).toEqual(expected);
    expect(changes.map((change) => change.trackedLinkId)).toEqual([ids.busy, ids.busy, ids.calm, ids.busy]);
    expect(changes.filter((change) => change.trackedLinkId === ids.busy)).toHaveLength(3);
  });

  it("answers every change when a link has fewer than asked", async () => {
    const changes = await recentStateChanges(scope, [ids.busy], 50);
    expect(changes).toEqual(await historyOf(ids.busy, 50));
    expect(changes).toHaveLength(7);
  });

  it("has nothing for another organization's links, nor for no links", async () => {
    const changes = await recentStateChanges(scope, [ids.theirs, ids.calm], 50);
    expect(changes.map((change) => change.trackedLinkId)).toEqual([ids.calm]);
    expect(await recentStateChanges(scope, [], 50)).toEqual([]);
  });
});
