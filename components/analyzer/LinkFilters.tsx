"use client";

import { useId } from "react";
import { REGIONS, type Region } from "@/lib/schemas/verdict";
import { NO_FILTERS, STATUS_CLASS_LABELS, type LinkFilters as Filters } from "./link-model";

const REGION_LABELS: Record<Region, string> = {
  main: "Main content",
  header: "Header",
  nav: "Navigation",
  aside: "Sidebar",
  footer: "Footer",
};

const selectClass =
  "rounded-md border border-slate-300 bg-white py-1.5 pr-7 pl-2 text-sm text-slate-900 focus:border-blue-600 focus:outline-2 focus:outline-blue-600/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col">
      <label htmlFor={id} className="text-xs font-medium text-slate-600 dark:text-slate-400">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as T)} className={selectClass}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Type, rel, status-class and free-text filters of the links table; with `withSignals` (a signed-in
 * audit, whose links carry signals) also visibility, script-only and region; with `withGoogleView` (a URL
 * audit whose Google view rendered) also whether Googlebot's render has the link.
 */
export function LinkFilters({
  filters,
  onChange,
  withSignals = false,
  withGoogleView = false,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
  withSignals?: boolean;
  withGoogleView?: boolean;
}) {
  const searchId = useId();
  const active = (Object.keys(NO_FILTERS) as (keyof Filters)[]).some((key) => filters[key] !== NO_FILTERS[key]);
  return (
    <div role="group" aria-label="Filter links" className="flex flex-wrap items-end gap-3">
      <div className="flex min-w-48 flex-1 flex-col">
        <label htmlFor={searchId} className="text-xs font-medium text-slate-600 dark:text-slate-400">
          Search anchor text or URL
        </label>
        <input
          id={searchId}
          type="search"
          value={filters.text}
          onChange={(event) => onChange({ ...filters, text: event.target.value })}
          placeholder="e.g. /pricing or “buy”"
          className={`${selectClass} pr-2`}
        />
      </div>
      <Select
        label="Type"
        value={filters.type}
        onChange={(type) => onChange({ ...filters, type })}
        options={[
          { value: "all", label: "All types" },
          { value: "internal", label: "Internal" },
          { value: "external", label: "External" },
          { value: "ignored", label: "Ignored" },
        ]}
      />
      <Select
        label="Rel"
        value={filters.rel}
        onChange={(rel) => onChange({ ...filters, rel })}
        options={[
          { value: "all", label: "Any rel" },
          { value: "follow", label: "Follow" },
          { value: "nofollow", label: "Nofollow" },
          { value: "sponsored", label: "Sponsored" },
          { value: "ugc", label: "UGC" },
        ]}
      />
      <Select
        label="Status"
        value={filters.status}
        onChange={(status) => onChange({ ...filters, status })}
        options={[
          { value: "all", label: "Any status" },
          { value: "broken", label: "Broken" },
          ...(["2xx", "3xx", "4xx", "5xx", "none", "unchecked"] as const).map((value) => ({
            value,
            label: STATUS_CLASS_LABELS[value],
          })),
        ]}
      />
      {withSignals && (
        <>
          <Select
            label="Visibility"
            value={filters.visibility}
            onChange={(visibility) => onChange({ ...filters, visibility })}
            options={[
              { value: "all", label: "Any visibility" },
              { value: "hidden", label: "Hidden" },
              { value: "visible", label: "Visible" },
            ]}
          />
          <Select
            label="In the served HTML"
            value={filters.source}
            onChange={(source) => onChange({ ...filters, source })}
            options={[
              { value: "all", label: "Either" },
              { value: "script_only", label: "Script only" },
              { value: "in_html", label: "In the HTML" },
            ]}
          />
          <Select
            label="Region"
            value={filters.region}
            onChange={(region) => onChange({ ...filters, region })}
            options={[
              { value: "all", label: "Any region" },
              ...REGIONS.map((region) => ({ value: region, label: REGION_LABELS[region] })),
              { value: "none", label: "No landmark" },
            ]}
          />
        </>
      )}
      {withGoogleView && (
        <Select
          label="Google's view"
          value={filters.googleView}
          onChange={(googleView) => onChange({ ...filters, googleView })}
          options={[
            { value: "all", label: "Either" },
            { value: "not_in_google_view", label: "Not in Google's view" },
            { value: "in_google_view", label: "In Google's view" },
          ]}
        />
      )}
      {active && (
        <button
          type="button"
          onClick={() => onChange(NO_FILTERS)}
          className="py-1.5 text-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-300"
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
