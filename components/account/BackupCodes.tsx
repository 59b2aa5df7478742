"use client";

import { useState } from "react";
import { downloadText } from "@/components/analyzer/download";
import { secondaryButtonClass } from "./ui";

/**
 * Backup codes as they are shown once (after enrolment, after making a new set): the list, a copy button
 * and a download of a text file. LinkLens keeps them encrypted and never shows them again.
 */
export function BackupCodes({ codes, email }: { codes: string[]; email: string }) {
  const [copied, setCopied] = useState(false);
  const text = `LinkLens backup codes for ${email}\nEach code works once, in place of a code from your authenticator app.\n\n${codes.join("\n")}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="rounded-md bg-amber-50 p-3 ring-1 ring-amber-200 dark:bg-amber-950/30 dark:ring-amber-900">
      <p className="text-sm text-amber-950 dark:text-amber-100">
        Your backup codes, shown only now: keep them somewhere safe (a password manager, or printed). Each works once if
        your phone is lost.
      </p>
      <ul aria-label="Backup codes" className="my-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} data-testid="backup-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          Copy codes
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => downloadText(text, "linklens-backup-codes.txt", "text/plain")}
        >
          Download codes
        </button>
        {copied && (
          <span role="status" className="text-sm text-slate-700 dark:text-slate-300">
            Copied.
          </span>
        )}
      </div>
    </div>
  );
}
