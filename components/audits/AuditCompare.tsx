"use client";

import { useId, useState } from "react";
import { auditsOfPagePath, comparePath, type Answer } from "@/components/account/answers";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import { useApi } from "@/components/account/use-api";
import { useHydrated } from "@/components/account/useHydrated";
import { Panel } from "@/components/analyzer/Panel";
import { RelBadges, StatusBadge, TypeBadge } from "@/components/analyzer/badges";
import { pageOf, type Page } from "@/lib/schemas/common";
import { AuditComparisonSchema, AuditSummarySchema, type AuditSummary, type LinkChange } from "@/lib/schemas/audits";
import type { Link } from "@/lib/api/schemas";
import { utcTime } from "./AuditsTable";

const AuditListSchema = pageOf(AuditSummarySchema);

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return String(value);
}

function LinkLine({ link }: { link: Link }) {
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-1.5">
      <span className="text-xs tabular-nums text-slate-500">#{link.position}</span>
      <TypeBadge type={link.linkType} />
      <RelBadges link={link} />
      <StatusBadge status={link.httpStatus} />
      <span className="min-w-0 break-all font-mono text-xs">{link.href}</span>
      {link.anchorText && <span className="text-slate-600 dark:text-slate-400">“{link.anchorText}”</span>}
    </span>
  );
}

function Section({
  title,
  testId,
  empty,
  children,
}: {
  title: string;
  testId: string;
  empty: boolean;
  children: React.ReactNode;
}) {
  return (
    <div data-testid={testId}>
      <h3 className="mb-1 text-sm font-semibold">{title}</h3>
      {empty ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">None.</p>
      ) : (
        <ul className="space-y-1.5 text-sm">{children}</ul>
      )}
    </div>
  );
}

function Change({ change }: { change: LinkChange }) {
  return (
    <li className="rounded-md bg-amber-50/60 p-2 dark:bg-amber-950/20">
      <span className="break-all font-mono text-xs">{change.href}</span>
      <ul className="mt-1 space-y-0.5">
        {change.fields.map((field) => (
          <li key={field} className="text-xs">
            <span className="font-semibold">{field}</span>: {show(change.before[field as keyof Link])} →{" "}
            {show(change.after[field as keyof Link])}
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * "Compare with…": pick another saved audit of the same page (the server hands over the list); the earlier
 * of the two is "before". Links are matched by URL (then by order among equal URLs); a link that only
 * moved is not a change.
 */
export function AuditCompare({
  audit,
  initial,
}: {
  audit: { id: string; url: string; createdAt: string };
  /** The saved audits of the page, as GET /api/account/audits?limit=100&url= answers them. */
  initial: Answer<Page<AuditSummary>>;
}) {
  const hydrated = useHydrated();
  const list = useApi(auditsOfPagePath(audit.url), AuditListSchema, { initial });
  const others = list.data?.items.filter((item) => item.id !== audit.id) ?? null;
  const [choice, setChoice] = useState("");
  const chosen = others?.find((item) => item.id === choice) ?? others?.[0];
  const [asked, setAsked] = useState<{ path: string; from: { createdAt: string }; to: { createdAt: string } } | null>(
    null,
  );
  const comparison = useApi(asked?.path ?? null, AuditComparisonSchema);
  const result = asked && comparison.data && !comparison.loading ? { ...asked, diff: comparison.data } : null;
  const error = list.error ?? comparison.error;
  const selectId = useId();

  function compare() {
    if (!chosen) return;
    // The API compares {id} ("after") with ?with= ("before"): the newer audit goes first.
    const otherIsOlder = chosen.createdAt <= audit.createdAt;
    const [after, before] = otherIsOlder ? [audit.id, chosen.id] : [chosen.id, audit.id];
    const path = comparePath(after, before);
    if (path === asked?.path) void comparison.revalidate();
    else setAsked({ path, from: otherIsOlder ? chosen : audit, to: otherIsOlder ? audit : chosen });
  }

  return (
    <Panel id="compare-heading" title="Compare with…">
      {others === null && !error && <p className="text-sm text-slate-500">Looking for other audits of this page…</p>}
      {others !== null && others.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No other audit of this URL yet. Re-run it later to see what changed.
        </p>
      )}
      {others !== null && others.length > 0 && (
        <div className="flex flex-wrap items-end gap-2">
          <label htmlFor={selectId} className="text-sm font-medium">
            Another audit of this page
            <select
              id={selectId}
              value={chosen?.id ?? ""}
              onChange={(event) => setChoice(event.target.value)}
              className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {others.map((item) => (
                <option key={item.id} value={item.id}>
                  {utcTime(item.createdAt)} · {item.stats.total} links
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={secondaryButtonClass} disabled={!hydrated} onClick={compare}>
            Compare
          </button>
        </div>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {result && (
        <div className="mt-4 space-y-4" data-testid="comparison">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            From {utcTime(result.from.createdAt)} to {utcTime(result.to.createdAt)}: {result.diff.added.length} added,{" "}
            {result.diff.removed.length} removed, {result.diff.changed.length} changed.
          </p>
          <Section
            title={`Added (${result.diff.added.length})`}
            testId="compare-added"
            empty={result.diff.added.length === 0}
          >
            {result.diff.added.map((link) => (
              <li key={`a-${link.position}`}>
                <LinkLine link={link} />
              </li>
            ))}
          </Section>
          <Section
            title={`Removed (${result.diff.removed.length})`}
            testId="compare-removed"
            empty={result.diff.removed.length === 0}
          >
            {result.diff.removed.map((link) => (
              <li key={`r-${link.position}`}>
                <LinkLine link={link} />
              </li>
            ))}
          </Section>
          <Section
            title={`Changed (${result.diff.changed.length})`}
            testId="compare-changed"
            empty={result.diff.changed.length === 0}
          >
            {result.diff.changed.map((change) => (
              <Change key={`c-${change.after.position}`} change={change} />
            ))}
          </Section>
        </div>
      )}
    </Panel>
  );
}
