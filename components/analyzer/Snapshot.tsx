"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useHydrated } from "@/components/account/useHydrated";
import { buildSnapshotDocument, SELECTED_ATTRIBUTE } from "./snapshot-document";

/**
 * The sanitized snapshot, in an iframe with `sandbox="allow-same-origin"` and nothing else:
 * - no allow-scripts, so nothing in the page can run, whatever the sanitizer missed (plus a CSP
 *   <meta> with default-src 'none' inside);
 * - allow-same-origin so that *our* code can reach `contentDocument` to highlight, scroll to and
 *   intercept clicks on links. postMessage would need a script inside the frame, which is exactly
 *   what we refuse. Same origin without scripts gives the frame no power: it cannot run code to use it.
 * - no allow-popups / allow-top-navigation; clicks on links are cancelled here and select the link instead.
 */
export function Snapshot({
  html,
  pageUrl,
  selected,
  onSelect,
}: {
  html: string;
  pageUrl: string;
  selected: number | null;
  onSelect: (position: number) => void;
}) {
  // Off by default: loading the page's images would send the visitor's IP to whatever hosts they name.
  const [loadImages, setLoadImages] = useState(false);
  // DOMParser exists only in browsers: the server renders an empty frame, the browser fills it in.
  // (A saved audit's page is server-rendered; building there threw and answered 500.)
  const inBrowser = useHydrated();
  const srcDoc = useMemo(
    () => (inBrowser ? buildSnapshotDocument(html, pageUrl, { loadImages }) : undefined),
    [inBrowser, html, pageUrl, loadImages],
  );
  const frameRef = useRef<HTMLIFrameElement>(null);
  const onSelectRef = useRef(onSelect);
  const [loads, setLoads] = useState(0);
  const [hidden, setHidden] = useState<number | null>(null);

  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  function onLoad() {
    const doc = frameRef.current?.contentDocument;
    if (!doc) return;
    const intercept = (event: Event) => {
      const target = event.target as { closest?: (selector: string) => Element | null } | null;
      const anchor = target?.closest?.("a[href], area[href]");
      if (!anchor) return;
      event.preventDefault();
      const position = Number(anchor.getAttribute("data-linklens-position"));
      if (Number.isInteger(position) && position > 0) onSelectRef.current(position);
    };
    doc.addEventListener("click", intercept, true);
    doc.addEventListener("auxclick", intercept, true);
    setLoads((count) => count + 1);
  }

  useEffect(() => {
    const frame = frameRef.current;
    const doc = frame?.contentDocument;
    const win = frame?.contentWindow;
    if (!doc || !win || loads === 0) return;
    doc.querySelectorAll(`[${SELECTED_ATTRIBUTE}]`).forEach((element) => element.removeAttribute(SELECTED_ATTRIBUTE));
    if (selected === null) return;
    const element = doc.querySelector(`[data-linklens-position="${selected}"]`);
    if (!element) return;
    element.setAttribute(SELECTED_ATTRIBUTE, "");
    const rect = element.getBoundingClientRect();
    const invisible = rect.width === 0 && rect.height === 0;
    // Scroll the frame's own viewport, not scrollIntoView, which would also scroll our page.
    if (!invisible)
      win.scrollTo({
        top: win.scrollY + rect.top - win.innerHeight / 3,
        left: Math.max(0, win.scrollX + rect.left - 24),
        behavior: "smooth",
      });
    setHidden(invisible ? selected : null);
  }, [selected, loads]);

  return (
    <div className="flex h-full flex-col gap-2">
      <label className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700 dark:text-slate-300">
        <input
          type="checkbox"
          checked={loadImages}
          onChange={(event) => setLoadImages(event.target.checked)}
          className="h-4 w-4"
        />
        Load images from the page
        <span className="text-xs text-slate-500 dark:text-slate-400">
          (your browser then contacts the hosts they are on)
        </span>
      </label>
      <p className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
        {hidden !== null && hidden === selected
          ? `Link #${hidden} is in the page but not visible (hidden by its CSS or inside a collapsed element).`
          : "Scripts are stripped and disabled; links do not navigate. Click a link to find it in the table."}
      </p>
      <iframe
        ref={frameRef}
        title="Sanitized snapshot of the analyzed page"
        sandbox="allow-same-origin"
        srcDoc={srcDoc}
        onLoad={onLoad}
        referrerPolicy="no-referrer"
        className="min-h-[28rem] w-full flex-1 rounded-lg bg-white ring-1 ring-slate-300 dark:ring-slate-700"
      />
    </div>
  );
}
