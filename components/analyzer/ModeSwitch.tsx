"use client";

import type { AnalyzeMode } from "./useAnalyze";

const MODES: { value: AnalyzeMode; label: string; description: string }[] = [
  { value: "url", label: "URL", description: "Render a live page" },
  { value: "paste", label: "Paste HTML", description: "Classify HTML you have" },
];

/** Native radios styled as a segmented control: arrow keys, labels and screen readers work as-is. */
export function ModeSwitch({ mode, onChange }: { mode: AnalyzeMode; onChange: (mode: AnalyzeMode) => void }) {
  return (
    <fieldset className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
      <legend className="sr-only">What to analyze</legend>
      {MODES.map((option) => (
        <label key={option.value} className="relative cursor-pointer">
          <input
            type="radio"
            name="mode"
            value={option.value}
            checked={mode === option.value}
            onChange={() => onChange(option.value)}
            className="peer sr-only"
          />
          <span className="block rounded-md px-4 py-1.5 text-sm font-medium text-slate-700 transition peer-checked:bg-white peer-checked:text-slate-950 peer-checked:shadow-sm peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 dark:text-slate-300 dark:peer-checked:bg-slate-950 dark:peer-checked:text-white">
            {option.label}
            <span className="sr-only"> ({option.description})</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
