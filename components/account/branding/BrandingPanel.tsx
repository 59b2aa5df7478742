"use client";

import { useRef, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { DEFAULT_ACCENT, isHexColor } from "@/lib/branding/colors";
import {
  BrandingSchema,
  LOGO_BOX,
  MAX_BRAND_FOOTER,
  MAX_BRAND_NAME,
  MAX_LOGO_BYTES,
  type Branding,
} from "@/lib/schemas/branding";
import { api, putFile } from "../api";
import { BRANDING_PATH, type Answer } from "../answers";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "../ui";
import { useApi } from "../use-api";
import { useHydrated } from "../useHydrated";
import { BrandPreview } from "./BrandPreview";

const LOGO_PATH = "/api/account/branding/logo";
const ACCEPTED = ["image/png", "image/jpeg"];

type Message = { kind: "error" | "info"; text: string } | null;

interface Form {
  displayName: string;
  accentColor: string;
  footer: string;
}

const formOf = (branding: Branding): Form => ({
  displayName: branding.displayName ?? "",
  accentColor: branding.accentColor ?? "",
  footer: branding.footer ?? "",
});

/** The logo's URL, changed by every new logo so the browser shows the new one at once. */
const logoUrl = (logo: NonNullable<Branding["logo"]>) => `${LOGO_PATH}?v=${logo.width}x${logo.height}-${logo.bytes}`;

/** Why a file will be refused, in words, before it is sent (the server refuses it the same way). */
function refusalOf(file: File): string | null {
  if (file.type === "image/svg+xml")
    return "SVG logos are not accepted: an SVG can carry scripts and load files from other sites. Export your logo as a PNG and upload that.";
  if (!ACCEPTED.includes(file.type)) {
    const kind =
      file.type === "image/gif" ? "A GIF" : file.type === "image/webp" ? "A WebP image" : "This kind of file";
    return `${kind} is not accepted: upload a PNG or a JPEG.`;
  }
  if (file.size > MAX_LOGO_BYTES)
    return `The file is ${Math.ceil(file.size / 1024).toLocaleString("en-US")} KiB; a logo may be at most ${MAX_LOGO_BYTES / 1024} KiB. Scale it down or compress it first.`;
  return null;
}

/**
 * Settings → Branding: the display name, accent colour and footer of the organization's client reports,
 * report emails and PDFs, with a live preview, and the logo (upload, remove). Admins and owners edit;
 * everyone else sees the same page read-only.
 */
export function BrandingPanel({
  initial,
  canEdit,
  organizationName,
}: {
  initial: Answer<Branding>;
  canEdit: boolean;
  organizationName: string;
}) {
  const hydrated = useHydrated();
  const { data, replace } = useApi(BRANDING_PATH, BrandingSchema, { initial });
  const branding = data ?? initial.data;
  const [form, setForm] = useState<Form>(() => formOf(initial.data));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [logoMessage, setLogoMessage] = useState<Message>(null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const accent = form.accentColor.trim();
  const accentValid = accent === "" || isHexColor(accent);
  const previewName = form.displayName.trim() || organizationName;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await api(
      "PATCH",
      BRANDING_PATH,
      {
        displayName: form.displayName.trim() || null,
        accentColor: accent || null,
        footer: form.footer.trim() || null,
      },
      BrandingSchema,
    );
    setBusy(false);
    if (!result.ok) return setMessage({ kind: "error", text: result.error });
    replace(result.data);
    setForm(formOf(result.data));
    setMessage({ kind: "info", text: "Branding saved: new reports and PDFs use it." });
  }

  async function upload(file: File | undefined) {
    if (!file) return;
    setLogoMessage(null);
    const refusal = refusalOf(file);
    if (refusal) {
      setLogoMessage({ kind: "error", text: refusal });
    } else {
      setUploading(true);
      const result = await putFile(LOGO_PATH, file, BrandingSchema);
      setUploading(false);
      if (result.ok) {
        replace(result.data);
        const logo = result.data.logo;
        setLogoMessage({
          kind: "info",
          text: logo ? `Logo saved (${logo.width} × ${logo.height} pixels).` : "Logo saved.",
        });
      } else setLogoMessage({ kind: "error", text: result.error });
    }
    if (fileInput.current) fileInput.current.value = "";
  }

  async function removeLogo() {
    setLogoMessage(null);
    setUploading(true);
    const result = await api("DELETE", LOGO_PATH);
    setUploading(false);
    if (!result.ok) return setLogoMessage({ kind: "error", text: result.error });
    replace({ ...branding, logo: null });
    setLogoMessage({ kind: "info", text: "Logo removed." });
  }

  const set = (field: keyof Form) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  return (
    <div className="space-y-4">
      {!canEdit && (
        <Notice kind="info">Only admins and owners change the branding; this is how your reports look.</Notice>
      )}
      <Panel id="branding-look" title="Name, colour and footer">
        <div className="grid gap-6 lg:grid-cols-2">
          <form onSubmit={save} className="space-y-4" aria-describedby="branding-help">
            <p id="branding-help" className="text-sm text-slate-600 dark:text-slate-400">
              Client reports (share links), report emails and their PDFs, and evidence PDFs show your logo and name at
              the top, your colour on headings and rules, and your footer at the bottom.
            </p>
            <Field label="Display name">
              <input
                className={inputClass}
                value={form.displayName}
                onChange={set("displayName")}
                maxLength={MAX_BRAND_NAME}
                placeholder={organizationName}
                readOnly={!canEdit}
                aria-describedby="display-name-help"
              />
            </Field>
            <p id="display-name-help" className="-mt-3 text-xs text-slate-600 dark:text-slate-400">
              At most {MAX_BRAND_NAME} characters; empty shows your team&apos;s name, {organizationName}.
            </p>
            <div>
              <label htmlFor="accent-color" className="block text-sm font-medium text-slate-800 dark:text-slate-200">
                Accent colour
              </label>
              <div className="mt-1 flex items-center gap-2">
                <input
                  type="color"
                  aria-label="Pick the accent colour"
                  className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1 disabled:cursor-default dark:border-slate-700 dark:bg-slate-900"
                  value={accentValid && accent ? accent.toLowerCase() : DEFAULT_ACCENT}
                  onChange={set("accentColor")}
                  disabled={!canEdit}
                />
                <input
                  id="accent-color"
                  className={`${inputClass} mt-0 font-mono`}
                  value={form.accentColor}
                  onChange={set("accentColor")}
                  placeholder="#rrggbb"
                  maxLength={7}
                  readOnly={!canEdit}
                  aria-invalid={!accentValid}
                  aria-describedby="accent-help"
                  spellCheck={false}
                />
                {canEdit && accent !== "" && (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => setForm((current) => ({ ...current, accentColor: "" }))}
                  >
                    Clear
                  </button>
                )}
              </div>
              <p id="accent-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                {accentValid
                  ? "Written #rrggbb; empty keeps LinkLens's look. Text on it is black or white, whichever reads better."
                  : "Write the colour as # and six hexadecimal digits, e.g. #0f766e."}
              </p>
            </div>
            <Field label="Footer">
              <textarea
                className={`${inputClass} min-h-20`}
                value={form.footer}
                onChange={set("footer")}
                maxLength={MAX_BRAND_FOOTER}
                readOnly={!canEdit}
                aria-describedby="footer-help"
              />
            </Field>
            <p id="footer-help" className="-mt-3 text-xs text-slate-600 dark:text-slate-400">
              Plain text, at most {MAX_BRAND_FOOTER} characters ({form.footer.length} used): your address, a contact, a
              disclaimer.
            </p>
            {message && <Notice kind={message.kind}>{message.text}</Notice>}
            {canEdit && (
              <button type="submit" className={buttonClass} disabled={!hydrated || busy || !accentValid}>
                {busy ? "Saving…" : "Save branding"}
              </button>
            )}
          </form>
          <BrandPreview
            name={previewName}
            accentColor={accentValid && accent ? accent.toLowerCase() : null}
            footer={form.footer}
            logoSrc={branding.logo ? logoUrl(branding.logo) : null}
          />
        </div>
      </Panel>
      <Panel id="branding-logo" title="Logo">
        <div className="space-y-3">
          {branding.logo ? (
            <div className="flex flex-wrap items-center gap-4">
              <span className="rounded-md bg-white p-2 ring-1 ring-slate-200 dark:ring-slate-700">
                {/* eslint-disable-next-line @next/next/no-img-element -- the stored logo, from our API */}
                <img
                  src={logoUrl(branding.logo)}
                  alt={`${previewName} logo`}
                  className="block h-auto max-h-24 w-auto max-w-60"
                  data-testid="logo-image"
                />
              </span>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                Stored as a PNG of {branding.logo.width} × {branding.logo.height} pixels (
                {Math.ceil(branding.logo.bytes / 1024).toLocaleString("en-US")} KiB).
              </p>
            </div>
          ) : (
            <p className="text-sm text-slate-700 dark:text-slate-300">No logo: reports show your name alone.</p>
          )}
          <p className="text-sm text-slate-600 dark:text-slate-400" id="logo-help">
            A PNG or JPEG of at most {MAX_LOGO_BYTES / 1024} KiB and 4096 × 4096 pixels. It is checked, scaled down to
            fit {LOGO_BOX} × {LOGO_BOX} pixels (never enlarged) and kept as a PNG. Not accepted: SVG (it can carry
            scripts and load files from other sites), GIF and WebP — export your logo as a PNG.
          </p>
          {canEdit && (
            <div className="flex flex-wrap items-center gap-3">
              <label
                className={`${secondaryButtonClass} cursor-pointer focus-within:ring-2 focus-within:ring-blue-600`}
              >
                {uploading ? "Working…" : branding.logo ? "Replace the logo…" : "Upload a logo…"}
                <input
                  ref={fileInput}
                  type="file"
                  accept="image/png,image/jpeg"
                  className="sr-only"
                  aria-describedby="logo-help"
                  disabled={!hydrated || uploading}
                  onChange={(event) => void upload(event.target.files?.[0])}
                />
              </label>
              {branding.logo && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  onClick={() => void removeLogo()}
                  disabled={!hydrated || uploading}
                >
                  Remove the logo
                </button>
              )}
            </div>
          )}
          {logoMessage && <Notice kind={logoMessage.kind}>{logoMessage.text}</Notice>}
        </div>
      </Panel>
    </div>
  );
}
