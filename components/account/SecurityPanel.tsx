"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { BackupCodesSchema, TwoFactorEnrolmentSchema, type TwoFactorEnrolment } from "@/lib/schemas/settings";
import { api, loadPage } from "./api";
import { BackupCodes } from "./BackupCodes";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";
import { useHydrated } from "./useHydrated";

/** The key of an authenticator URI, for typing it in where a camera cannot read the QR code. */
function secretOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

/** The authenticator URI as a QR code, drawn here in the browser: the secret never leaves the page. */
function QrCode({ value }: { value: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(value, { errorCorrectionLevel: "M", margin: 2, width: 200 }).then((url) => {
      if (current) setImage(url);
    });
    return () => {
      current = false;
    };
  }, [value]);
  return image ? (
    // A data: URL made on this page; next/image has nothing to optimise here.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={image}
      width={200}
      height={200}
      alt="QR code for your authenticator app"
      className="rounded-md bg-white"
    />
  ) : (
    <div className="h-[200px] w-[200px] rounded-md bg-slate-100 dark:bg-slate-800" aria-hidden />
  );
}

/** A password field and a button, for the actions that take the password again. */
function PasswordForm({
  label,
  danger,
  busy,
  onSubmit,
}: {
  label: string;
  danger?: boolean;
  busy: boolean;
  onSubmit: (password: string) => void;
}) {
  const hydrated = useHydrated();
  return (
    <form
      method="post"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        onSubmit(String(new FormData(form).get("password") ?? ""));
        form.reset();
      }}
    >
      <div className="min-w-0 flex-1 basis-56">
        <Field label="Your password">
          <input name="password" type="password" required autoComplete="current-password" className={inputClass} />
        </Field>
      </div>
      <button
        type="submit"
        disabled={!hydrated || busy}
        className={danger ? `${secondaryButtonClass} text-red-800 dark:text-red-300` : buttonClass}
      >
        {label}
      </button>
    </form>
  );
}

/**
 * Settings → Security: two-factor sign-in. Turning it on takes the password, then shows the QR code (and
 * its key as text), the backup codes once, and asks for a first code: the factor is on from that code.
 * Once on: new backup codes, or turning it off, each with the password again.
 */
export function SecurityPanel({
  email,
  twoFactorEnabled,
  requiredBy,
}: {
  email: string;
  twoFactorEnabled: boolean;
  /** The active team's name when it requires two-factor sign-in. */
  requiredBy: string | null;
}) {
  const hydrated = useHydrated();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(password: string) {
    setBusy(true);
    setError(null);
    const result = await api("POST", "/api/auth/two-factor/enable", { password }, TwoFactorEnrolmentSchema);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setEnrolment(result.data);
  }

  async function confirm(code: string) {
    setBusy(true);
    setError(null);
    const result = await api("POST", "/api/auth/two-factor/verify-totp", { code });
    setBusy(false);
    if (!result.ok)
      return setError(
        result.errorCode === "INVALID_CODE" ? "That code is not right: try the next one your app shows." : result.error,
      );
    // The session was renewed with the factor on: the whole frame reads it again.
    loadPage("/app/settings?twoFactor=on#security");
  }

  async function regenerate(password: string) {
    setBusy(true);
    setError(null);
    const result = await api("POST", "/api/auth/two-factor/generate-backup-codes", { password }, BackupCodesSchema);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setNewCodes(result.data.backupCodes);
  }

  async function turnOff(password: string) {
    setBusy(true);
    setError(null);
    const result = await api("POST", "/api/auth/two-factor/disable", { password });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    loadPage("/app/settings?twoFactor=off#security");
  }

  return (
    <Panel id="security" title="Two-factor sign-in">
      <div className="space-y-4 text-sm">
        {requiredBy && !twoFactorEnabled && (
          <Notice kind="error">
            {requiredBy} requires two-factor sign-in. Turn it on here to open the team&apos;s pages again.
          </Notice>
        )}
        {error && <Notice kind="error">{error}</Notice>}
        <p className="text-slate-700 dark:text-slate-300">
          {twoFactorEnabled ? (
            <>
              <strong>On.</strong> Signing in takes a code from your authenticator app, or a backup code, after your
              password or emailed link.
            </>
          ) : (
            <>
              <strong>Off.</strong> With it on, signing in also takes a 6-digit code from an authenticator app on your
              phone (Google Authenticator, 1Password, Authy…), so a stolen password or mailbox is not enough.
            </>
          )}
        </p>

        {!twoFactorEnabled && !enrolment && (
          <PasswordForm label="Turn on two-factor sign-in" busy={busy} onSubmit={(p) => void start(p)} />
        )}

        {!twoFactorEnabled && enrolment && (
          <ol className="space-y-4">
            <li>
              <h3 className="font-semibold">1. Scan this QR code with your authenticator app</h3>
              <div className="mt-2 flex flex-wrap items-start gap-4">
                <QrCode value={enrolment.totpURI} />
                <div className="min-w-0 flex-1 basis-56 text-slate-700 dark:text-slate-300">
                  <p>No camera? Type this key into the app (time-based, 6 digits):</p>
                  <p className="mt-1 font-mono break-all" data-testid="totp-secret">
                    {secretOf(enrolment.totpURI)}
                  </p>
                </div>
              </div>
            </li>
            <li>
              <h3 className="mb-2 font-semibold">2. Keep your backup codes</h3>
              <BackupCodes codes={enrolment.backupCodes} email={email} />
            </li>
            <li>
              <h3 className="mb-2 font-semibold">3. Enter the code your app shows</h3>
              <form
                method="post"
                className="flex flex-wrap items-end gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  void confirm(String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s/g, ""));
                }}
              >
                <div className="w-40">
                  <Field label="6-digit code">
                    <input
                      name="code"
                      required
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      pattern="[0-9 ]{6,7}"
                      maxLength={7}
                      className={`${inputClass} font-mono tracking-widest`}
                    />
                  </Field>
                </div>
                <button type="submit" disabled={!hydrated || busy} className={buttonClass}>
                  Turn on
                </button>
              </form>
            </li>
          </ol>
        )}

        {twoFactorEnabled && (
          <div className="space-y-4">
            <div>
              <h3 className="mb-1 font-semibold">Backup codes</h3>
              <p className="mb-2 text-slate-600 dark:text-slate-400">
                A new set replaces the old one: the old codes stop working.
              </p>
              {newCodes ? (
                <BackupCodes codes={newCodes} email={email} />
              ) : (
                <PasswordForm label="Make new backup codes" busy={busy} onSubmit={(p) => void regenerate(p)} />
              )}
            </div>
            <div>
              <h3 className="mb-1 font-semibold">Turn off</h3>
              <p className="mb-2 text-slate-600 dark:text-slate-400">
                {requiredBy
                  ? `${requiredBy} requires two-factor sign-in: without it, its pages are closed to you until you turn it on again.`
                  : "Your password or an emailed link will be enough to sign in; devices you trusted are forgotten."}
              </p>
              <PasswordForm label="Turn off two-factor sign-in" danger busy={busy} onSubmit={(p) => void turnOff(p)} />
            </div>
          </div>
        )}
      </div>
    </Panel>
  );
}
