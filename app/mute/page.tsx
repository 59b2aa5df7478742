import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard, Notice } from "@/components/account/ui";
import { MuteUndo } from "@/components/account/MuteUndo";
import { SiteHeader } from "@/components/site/SiteChrome";
import { muteFromToken } from "@/lib/alerts/one-click";
import { ApiError } from "@/lib/errors";

export const metadata: Metadata = { title: "Mute alerts — LinkLens", robots: { index: false } };
export const dynamic = "force-dynamic";

// /mute?token=… — the "Mute this monitor" link of an alert email: one click mutes, without signing in (the
// signed token names the recipient and the monitor); the page offers Undo.
export default async function MutePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : null;
  let outcome: { ok: true; kind: "mute" | "off"; pageUrl: string | null } | { ok: false; message: string };
  try {
    const result = await muteFromToken(token, false);
    outcome = { ok: true, kind: result.kind, pageUrl: result.pageUrl };
  } catch (error) {
    outcome = { ok: false, message: error instanceof ApiError ? error.message : "Something went wrong. Try again, or change notifications in the app." };
  }
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title={outcome.ok ? (outcome.kind === "mute" ? "Monitor muted" : "Alert emails off") : "This link did not work"}>
        {outcome.ok ? (
          <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
            <p>
              {outcome.kind === "mute" ? (
                <>
                  You will get no more alert emails about <span className="break-all font-medium">{outcome.pageUrl}</span>. Your teammates still do, and the
                  alerts stay in the app.
                </>
              ) : (
                "You will get no more alert emails from this team. The alerts stay in the app."
              )}
            </p>
            {token && <MuteUndo token={token} kind={outcome.kind} />}
            <p>
              <Link className="text-blue-800 underline dark:text-blue-300" href="/app/settings#notifications">
                Notification settings
              </Link>
            </p>
          </div>
        ) : (
          <Notice kind="error">{outcome.message}</Notice>
        )}
      </AuthCard>
    </div>
  );
}
