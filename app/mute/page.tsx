import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard, buttonClass, Notice, secondaryButtonClass } from "@/components/account/ui";
import { SiteHeader } from "@/components/site/SiteChrome";
import { muteStatusFromToken } from "@/lib/alerts/one-click";
import type { MuteStatus } from "@/lib/alerts/mute";
import { ApiError } from "@/lib/errors";

export const metadata: Metadata = { title: "Mute alerts — LinkLens", robots: { index: false } };
export const dynamic = "force-dynamic";

const TITLES = {
  mute: { on: "Mute this monitor?", done: "Monitor muted" },
  off: { on: "Turn off alert emails?", done: "Alert emails off" },
} as const;

// /mute?token=… — the "Mute this monitor" link of an alert email (and the digest's "turn emails off"). Opening
// it changes nothing, since mail scanners open links: the page shows what the signed token names and
// whether it is in effect, with a plain form (no JavaScript needed) that POSTs /mute/confirm to mute or undo.
export default async function MutePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : null;
  let outcome: { ok: true; status: MuteStatus } | { ok: false; message: string };
  try {
    outcome = { ok: true, status: await muteStatusFromToken(token) };
  } catch (error) {
    outcome = {
      ok: false,
      message:
        error instanceof ApiError
          ? error.message
          : "Something went wrong. Try again, or change notifications in the app.",
    };
  }
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      {outcome.ok ? (
        <AuthCard title={outcome.status.muted ? TITLES[outcome.status.kind].done : TITLES[outcome.status.kind].on}>
          {/* A status means the token was there and verified. */}
          <MuteForm token={token ?? ""} status={outcome.status} undone={params.done === "1"} />
        </AuthCard>
      ) : (
        <AuthCard title="This link did not work">
          <Notice kind="error">{outcome.message}</Notice>
        </AuthCard>
      )}
    </div>
  );
}

function MuteForm({ token, status, undone }: { token: string; status: MuteStatus; undone: boolean }) {
  const page = <span className="break-all font-medium">{status.pageUrl}</span>;
  let text: React.ReactNode;
  if (status.kind === "mute")
    text = status.muted ? (
      <>You will get no more alert emails about {page}. Your teammates still do, and the alerts stay in the app.</>
    ) : (
      <>Stop alert emails about {page} for you? Your teammates still get them, and the alerts stay in the app.</>
    );
  else
    text = status.muted
      ? "You will get no more alert emails from this team. The alerts stay in the app."
      : "Stop every alert email from this team to you? The alerts stay in the app.";
  return (
    <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
      {/* Shown after an undo (the form's redirect says so); the state itself is read above. */}
      {undone && !status.muted && (
        <Notice kind="info">
          {status.kind === "mute" ? "Alert emails about this page are on again." : "Daily digests are on again."}
        </Notice>
      )}
      <p>{text}</p>
      <form method="post" action="/mute/confirm">
        <input type="hidden" name="token" value={token} />
        {status.muted && <input type="hidden" name="undo" value="1" />}
        <button type="submit" className={status.muted ? secondaryButtonClass : buttonClass}>
          {status.muted ? "Undo" : status.kind === "mute" ? "Mute this monitor" : "Turn off alert emails"}
        </button>
      </form>
      <p>
        <Link className="text-blue-800 underline dark:text-blue-300" href="/app/settings#notifications">
          Notification settings
        </Link>
      </p>
    </div>
  );
}
