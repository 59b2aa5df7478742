import { describe, expect, it } from "vitest";
import { filterLinks, NO_FILTERS, type ViewLink } from "@/components/analyzer/link-model";
import type { LinkSignals } from "@/lib/schemas/verdict";

/** The saved audit's signal filters (components/analyzer/link-model.ts): visibility, script only, region. */

const link = (position: number, signals?: Partial<LinkSignals>): ViewLink => ({
  href: `https://example.com/${position}`,
  position,
  linkType: "internal",
  anchorText: `link ${position}`,
  isNofollow: false,
  isSponsored: false,
  isUgc: false,
  isImage: false,
  httpStatus: null,
  matchedGroupName: null,
  ...(signals ? { signals: { inRawHtml: true, hidden: false, region: null, inGoogleView: null, ...signals } } : {}),
});

const LINKS = [
  link(1, { region: "main" }),
  link(2, { hidden: true, region: "main" }),
  link(3, { inRawHtml: false, region: "footer" }),
  link(4, {}),
  link(5),
];
const positions = (filters: Partial<typeof NO_FILTERS>) =>
  filterLinks(LINKS, { ...NO_FILTERS, ...filters }).map((item) => item.position);

describe("signal filters", () => {
  it.each([
    [{}, [1, 2, 3, 4, 5]],
    [{ visibility: "hidden" }, [2]],
    [{ visibility: "visible" }, [1, 3, 4]],
    [{ source: "script_only" }, [3]],
    [{ source: "in_html" }, [1, 2, 4]],
    [{ region: "main" }, [1, 2]],
    [{ region: "footer" }, [3]],
    [{ region: "none" }, [4]],
    [{ region: "main", visibility: "visible" }, [1]],
  ] as const)("%j → %j (a public link, without signals, passes only the defaults)", (filters, expected) => {
    expect(positions(filters)).toEqual(expected);
  });
});
