"use client";

import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { DEFAULT_PASTE_DOMAIN, type DemoAnalyzeRequest } from "@/lib/api/schemas";
import { ModeSwitch } from "./ModeSwitch";
import { SAMPLE_HTML } from "./SAMPLE_HTML";
import { SubmitButton } from "./SubmitButton";
import type { AnalyzeMode, AnalyzePending } from "./useAnalyze";
import { validatePasteInput, validateUrlInput } from "./validate-input";

type Field = "url" | "html" | "domain";

const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-2 focus:outline-blue-600/40 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 dark:aria-invalid:border-red-400";
const labelClass = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";
const helpClass = "mt-1 text-xs text-slate-600 dark:text-slate-400";
const errorClass = "mt-1 text-sm font-medium text-red-700 dark:text-red-300";

/**
 * The two-mode input form. Validates with the shared schemas before any request; Enter submits
 * from the single-line fields, Ctrl/⌘+Enter from the HTML textarea.
 */
export function AnalyzeForm({
  pending,
  onAnalyze,
  onCancel,
}: {
  pending: AnalyzePending | null;
  onAnalyze: (request: DemoAnalyzeRequest, mode: AnalyzeMode) => void;
  onCancel: () => void;
}) {
  const [mode, setMode] = useState<AnalyzeMode>("url");
  const [url, setUrl] = useState("");
  const [html, setHtml] = useState("");
  const [domain, setDomain] = useState("");
  const [invalid, setInvalid] = useState<{ field: Field; message: string } | null>(null);
  const fieldRefs = useRef<Partial<Record<Field, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const id = useId();
  const ids = { url: `${id}-url`, html: `${id}-html`, domain: `${id}-domain` };

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (pending) return;
    const validation = mode === "url" ? validateUrlInput(url) : validatePasteInput(html, domain);
    if (!validation.ok) {
      setInvalid({ field: validation.field, message: validation.message });
      fieldRefs.current[validation.field]?.focus();
      return;
    }
    setInvalid(null);
    if ("url" in validation.request) setUrl(validation.request.url);
    onAnalyze(validation.request, mode);
  }

  function onTextareaKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) submit();
  }

  const errorFor = (field: Field) =>
    invalid?.field === field ? (
      <p id={`${ids[field]}-error`} className={errorClass}>
        {invalid.message}
      </p>
    ) : null;
  const describedBy = (field: Field, help?: string) =>
    [invalid?.field === field ? `${ids[field]}-error` : null, help].filter(Boolean).join(" ") || undefined;

  const submitButton = <SubmitButton pending={pending} onCancel={onCancel} />;

  return (
    <form onSubmit={submit} noValidate aria-label="Analyze a page" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ModeSwitch
          mode={mode}
          onChange={(next) => {
            setMode(next);
            setInvalid(null);
          }}
        />
        {mode === "paste" && (
          <button
            type="button"
            onClick={() => {
              setHtml(SAMPLE_HTML);
              setInvalid(null);
            }}
            className="text-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-300"
          >
            Load an example
          </button>
        )}
      </div>

      {mode === "url" ? (
        <div>
          <label htmlFor={ids.url} className={labelClass}>
            Page URL
          </label>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1">
              <input
                ref={(node) => {
                  fieldRefs.current.url = node;
                }}
                id={ids.url}
                name="url"
                type="url"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                placeholder="https://example.com/blog/post"
                value={url}
                onChange={(event) => setUrl(event.target.value)}
                aria-invalid={invalid?.field === "url" || undefined}
                aria-describedby={describedBy("url", `${ids.url}-help`)}
                className={inputClass}
              />
            </div>
            {submitButton}
          </div>
          {errorFor("url")}
          <p id={`${ids.url}-help`} className={helpClass}>
            A public page. LinkLens renders it in Chromium (JavaScript included), then checks each link&apos;s HTTP
            status.
          </p>
        </div>
      ) : (
        <div className="grid gap-4 md:grid-cols-[1fr_16rem]">
          <div>
            <label htmlFor={ids.html} className={labelClass}>
              HTML
            </label>
            <textarea
              ref={(node) => {
                fieldRefs.current.html = node;
              }}
              id={ids.html}
              name="html"
              rows={8}
              spellCheck={false}
              placeholder="<html>… paste the page source here …</html>"
              value={html}
              onChange={(event) => setHtml(event.target.value)}
              onKeyDown={onTextareaKeyDown}
              aria-invalid={invalid?.field === "html" || undefined}
              aria-describedby={describedBy("html", `${ids.html}-help`)}
              className={`${inputClass} min-h-40 resize-y font-mono text-xs leading-relaxed`}
            />
            {errorFor("html")}
            <p id={`${ids.html}-help`} className={helpClass}>
              Nothing is fetched and no script runs. Ctrl/⌘ + Enter analyzes.
            </p>
          </div>
          <div>
            <label htmlFor={ids.domain} className={labelClass}>
              Domain <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
            </label>
            <input
              ref={(node) => {
                fieldRefs.current.domain = node;
              }}
              id={ids.domain}
              name="domain"
              type="text"
              inputMode="url"
              autoCapitalize="none"
              spellCheck={false}
              placeholder={DEFAULT_PASTE_DOMAIN}
              value={domain}
              onChange={(event) => setDomain(event.target.value)}
              aria-invalid={invalid?.field === "domain" || undefined}
              aria-describedby={describedBy("domain", `${ids.domain}-help`)}
              className={inputClass}
            />
            {errorFor("domain")}
            <p id={`${ids.domain}-help`} className={helpClass}>
              Where the page lives: decides internal vs external. Defaults to {DEFAULT_PASTE_DOMAIN}.
            </p>
          </div>
        </div>
      )}

      {mode === "paste" && submitButton}
    </form>
  );
}
