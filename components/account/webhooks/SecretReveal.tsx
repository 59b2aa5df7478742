"use client";

import { useState } from "react";
import { secondaryButtonClass } from "@/components/account/ui";

/**
 * A signing secret, shown once (after creating an endpoint or rotating its secret): in a read-only
 * field a person can select, with a button that copies it. Nothing here keeps it after the page changes.
 */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard (an insecure origin, a denied permission): the field stays selectable.
      setCopied("no");
    }
  }

  return (
    <div
      className="space-y-2 rounded-md bg-amber-50 p-3 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:ring-amber-900"
      data-testid="webhook-secret"
    >
      <p className="text-sm font-semibold text-amber-900 dark:text-amber-100">
        Signing secret — copy it now: it is shown only once.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={secret}
          aria-label="Signing secret"
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-2 py-1.5 font-mono text-xs text-slate-900 dark:border-amber-800 dark:bg-slate-900 dark:text-slate-100"
        />
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="text-xs text-amber-900 dark:text-amber-100">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "no"
            ? "Could not copy: select the field and copy it yourself."
            : "Your receiver verifies each delivery's webhook-signature with it (see the docs)."}
      </p>
    </div>
  );
}
