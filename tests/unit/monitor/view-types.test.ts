import { describe, expectTypeOf, it } from "vitest";
import type { Check, ImportResult, LinkSeen, Monitor, TrackedLink, Transition } from "@/components/account/monitors/types";
import type { ImportResult as ServerImportResult } from "@/lib/monitor/import";
import type { checkView, MonitorView, TrackedLinkView, transitionView } from "@/lib/monitor/views";
import type { StoredLink } from "@/lib/db/schema/monitors";

/**
 * The monitoring pages read the API through their own types (components may not import lib/monitor:
 * docs/architecture.md). These assertions are checked by `tsc` (npm run typecheck): what the server
 * answers must fit what the pages read, so a renamed, retyped or dropped field fails the build instead
 * of rendering "undefined". The pages may read a subset; the server may send more.
 */
describe("monitoring answers fit the pages' types", () => {
  it("monitor, tracked link, seen link, check, transition, import", () => {
    expectTypeOf<StoredLink>().toExtend<LinkSeen>();
    expectTypeOf<TrackedLinkView>().toExtend<TrackedLink>();
    expectTypeOf<MonitorView>().toExtend<Monitor>();
    expectTypeOf<ReturnType<typeof checkView>>().toExtend<Check>();
    expectTypeOf<ReturnType<typeof transitionView>>().toExtend<Transition>();
    expectTypeOf<ServerImportResult>().toExtend<ImportResult>();
  });
});
