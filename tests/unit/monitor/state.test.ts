import { describe, expect, it } from "vitest";
import type { LinkState, StoredLink } from "@/lib/db/schema/monitors";
import { nextLinkState, observe, relMeets, relOf, type PreviousLink } from "@/lib/monitor/state";

const link = (overrides: Partial<StoredLink> = {}): StoredLink => ({
  href: "https://mysite.example/landing",
  position: 3,
  linkType: "external",
  anchorText: "My Site",
  isNofollow: false,
  isSponsored: false,
  isUgc: false,
  isImage: false,
  httpStatus: 200,
  matchedGroupName: null,
  ...overrides,
});

const previous = (state: LinkState, overrides: Partial<PreviousLink> = {}): PreviousLink => ({
  state,
  pendingState: null,
  pendingCount: 0,
  current: state === "pending" ? null : link(),
  expectedRel: "follow",
  expectedAnchor: null,
  ...overrides,
});

const settings = { confirmChecks: 2 };
const LIVE = link();
const NOFOLLOW = link({ isNofollow: true });
const BROKEN = link({ httpStatus: 404 });
const RENAMED = link({ anchorText: "Another text" });

describe("observe", () => {
  it.each([
    ["no link", null, "missing"],
    ["a 404 target", BROKEN, "broken"],
    ["no response (0)", link({ httpStatus: 0 }), "broken"],
    ["a 403 target (access wall, not broken)", link({ httpStatus: 403 }), "live"],
    ["an unchecked target (null)", link({ httpStatus: null }), "live"],
    ["nofollow where follow is expected", NOFOLLOW, "rel_mismatch"],
    ["a live link", LIVE, "live"],
  ] as const)("%s → %s", (_, seen, expected) => {
    expect(observe(seen, { expectedRel: "follow", expectedAnchor: null })).toBe(expected);
  });

  it("compares anchors with whitespace collapsed and case ignored", () => {
    expect(observe(link({ anchorText: "  my   SITE " }), { expectedRel: null, expectedAnchor: "My Site" })).toBe(
      "live",
    );
    expect(observe(RENAMED, { expectedRel: null, expectedAnchor: "My Site" })).toBe("anchor_mismatch");
  });

  it("checks the rel before the anchor, and breakage before both", () => {
    expect(
      observe(link({ isNofollow: true, anchorText: "x" }), { expectedRel: "follow", expectedAnchor: "My Site" }),
    ).toBe("rel_mismatch");
    expect(observe(link({ httpStatus: 500, isNofollow: true }), { expectedRel: "follow", expectedAnchor: null })).toBe(
      "broken",
    );
  });
});

describe("relOf and relMeets", () => {
  it.each([
    [{ isNofollow: false, isSponsored: false, isUgc: false }, "follow"],
    [{ isNofollow: true, isSponsored: false, isUgc: false }, "nofollow"],
    [{ isNofollow: true, isSponsored: true, isUgc: false }, "sponsored"],
    [{ isNofollow: false, isSponsored: false, isUgc: true }, "ugc"],
  ] as const)("%o is %s", (flags, rel) => {
    expect(relOf(flags)).toBe(rel);
    expect(relMeets(flags, rel)).toBe(true);
  });

  it("follow means none of the three flags", () => {
    expect(relMeets({ isNofollow: false, isSponsored: true, isUgc: false }, "follow")).toBe(false);
    expect(relMeets({ isNofollow: true, isSponsored: true, isUgc: false }, "nofollow")).toBe(true);
  });
});

describe("nextLinkState: every transition", () => {
  // [from, what the check saw, pending loss before, → state, events, still pending?]
  const table: Array<[string, LinkState, StoredLink | null, Partial<PreviousLink>, LinkState, string[], boolean]> = [
    ["first check finds it", "pending", LIVE, {}, "live", [], false],
    ["first check: not there yet (unconfirmed)", "pending", null, {}, "pending", [], true],
    [
      "first check: missing confirmed",
      "pending",
      null,
      { pendingState: "missing", pendingCount: 1 },
      "missing",
      ["link_missing"],
      false,
    ],
    ["first check finds it nofollow", "pending", NOFOLLOW, {}, "rel_mismatch", ["rel_changed"], false],
    [
      "first check finds another anchor",
      "pending",
      RENAMED,
      { expectedAnchor: "My Site" },
      "anchor_mismatch",
      ["anchor_changed"],
      false,
    ],
    ["first check: broken unconfirmed", "pending", BROKEN, {}, "pending", [], true],
    ["live stays live", "live", LIVE, {}, "live", [], false],
    ["live: first miss waits", "live", null, {}, "live", [], true],
    [
      "live: second miss confirms",
      "live",
      null,
      { pendingState: "missing", pendingCount: 1 },
      "missing",
      ["link_missing"],
      false,
    ],
    [
      "live: a miss after a broken sighting starts counting again",
      "live",
      null,
      { pendingState: "broken", pendingCount: 1 },
      "live",
      [],
      true,
    ],
    [
      "live: back after one miss clears it",
      "live",
      LIVE,
      { pendingState: "missing", pendingCount: 1 },
      "live",
      [],
      false,
    ],
    ["live: first broken sighting waits", "live", BROKEN, {}, "live", [], true],
    [
      "live: second broken sighting confirms",
      "live",
      BROKEN,
      { pendingState: "broken", pendingCount: 1 },
      "broken",
      ["link_broken"],
      false,
    ],
    ["live → nofollow at once", "live", NOFOLLOW, {}, "rel_mismatch", ["rel_changed"], false],
    [
      "live → anchor changed at once",
      "live",
      RENAMED,
      { expectedAnchor: "My Site" },
      "anchor_mismatch",
      ["anchor_changed"],
      false,
    ],
    ["missing stays missing", "missing", null, {}, "missing", [], false],
    ["missing → restored", "missing", LIVE, {}, "live", ["link_restored"], false],
    [
      "missing → restored but nofollow",
      "missing",
      NOFOLLOW,
      {},
      "rel_mismatch",
      ["link_restored", "rel_changed"],
      false,
    ],
    ["missing → back but broken (unconfirmed)", "missing", BROKEN, {}, "missing", [], true],
    ["broken → fixed", "broken", LIVE, {}, "live", ["link_fixed"], false],
    ["broken → first miss waits", "broken", null, {}, "broken", [], true],
    [
      "broken → gone, confirmed",
      "broken",
      null,
      { pendingState: "missing", pendingCount: 1 },
      "missing",
      ["link_missing"],
      false,
    ],
    ["rel_mismatch → follow again", "rel_mismatch", LIVE, {}, "live", ["rel_changed"], false],
    [
      "rel_mismatch → right rel, wrong anchor",
      "rel_mismatch",
      RENAMED,
      { expectedAnchor: "My Site" },
      "anchor_mismatch",
      ["rel_changed", "anchor_changed"],
      false,
    ],
    [
      "rel_mismatch → missing confirmed",
      "rel_mismatch",
      null,
      { pendingState: "missing", pendingCount: 1 },
      "missing",
      ["link_missing"],
      false,
    ],
    [
      "anchor_mismatch → anchor back",
      "anchor_mismatch",
      LIVE,
      { expectedAnchor: "My Site" },
      "live",
      ["anchor_changed"],
      false,
    ],
    [
      "anchor_mismatch → nofollow",
      "anchor_mismatch",
      NOFOLLOW,
      { expectedAnchor: "My Site" },
      "rel_mismatch",
      ["rel_changed", "anchor_changed"],
      false,
    ],
  ];

  it.each(table)("%s", (_, from, seen, extra, state, events, pending) => {
    const before = previous(from, extra);
    const next = nextLinkState(before, seen, settings);
    expect(next.state).toBe(state);
    expect(next.events.map((event) => event.type)).toEqual(events);
    expect(next.needsConfirmation).toBe(pending);
    for (const event of next.events) {
      expect(event.before.state).toBe(from);
      expect(event.after.state).toBe(state);
      expect(event.after.link).toEqual(seen);
    }
  });

  it("confirms at once when MONITOR_CONFIRM_CHECKS is 1, and needs three sightings when it is 3", () => {
    expect(nextLinkState(previous("live"), null, { confirmChecks: 1 }).state).toBe("missing");
    let state = previous("live");
    for (const expected of [true, true, false]) {
      const next = nextLinkState(state, null, { confirmChecks: 3 });
      expect(next.needsConfirmation).toBe(expected);
      state = {
        ...state,
        state: next.state,
        pendingState: next.pendingState,
        pendingCount: next.pendingCount,
        current: next.current,
      };
    }
    expect(state.state).toBe("missing");
  });

  it("keeps the last sighting as current while the link is missing", () => {
    const next = nextLinkState(previous("live", { pendingState: "missing", pendingCount: 1 }), null, settings);
    expect(next.current).toEqual(LIVE);
  });

  it("reports a rel or anchor change nobody set an expectation for, without a state change", () => {
    const free = { expectedRel: null, expectedAnchor: null };
    const rel = nextLinkState(previous("live", free), NOFOLLOW, settings);
    expect(rel.state).toBe("live");
    expect(rel.events.map((event) => event.type)).toEqual(["rel_changed"]);
    expect(rel.events[0]?.before.link?.isNofollow).toBe(false);
    expect(rel.events[0]?.after.link?.isNofollow).toBe(true);
    const anchor = nextLinkState(previous("live", free), RENAMED, settings);
    expect(anchor.events.map((event) => event.type)).toEqual(["anchor_changed"]);
    expect(nextLinkState(previous("live", free), link({ anchorText: "my  site" }), settings).events).toEqual([]);
    expect(nextLinkState(previous("pending", free), NOFOLLOW, settings).events).toEqual([]);
  });
});
