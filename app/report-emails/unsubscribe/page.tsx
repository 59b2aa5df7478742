import type { Metadata } from "next";
import { AuthCard, buttonClass, Notice } from "@/components/account/ui";
import { SiteHeader } from "@/components/site/SiteChrome";
import { unsubscribeStatus, type UnsubscribeView } from "@/lib/reports/unsubscribe";
import { ApiError } from "@/lib/errors";

export const metadata: Metadata = {
  title: "Unsubscribe from link reports — LinkLens",
  robots: { index: false },
  referrer: "no-referrer",
};
export const dynamic = "force-dynamic";

// /report-emails/unsubscribe?token=… — the visible unsubscribe link of a scheduled report email, for a
// person without an account. Opening it changes nothing (mail scanners open links): it shows what the
// signed token names and whether reports still go there, with a plain form that POSTs
// /report-emails/unsubscribe/submit. Mail clients' one-click POST goes to /api/report-emails/unsubscribe.
export default async function UnsubscribeReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : null;
  let outcome: { ok: true; view: UnsubscribeView } | { ok: false; message: string };
  try {
    outcome = { ok: true, view: await unsubscribeStatus(token) };
  } catch (error) {
    outcome = {
      ok: false,
      message: error instanceof ApiError ? error.message : "Something went wrong. Try the link again later.",
    };
  }
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      {outcome.ok ? (
        <AuthCard title={outcome.view.subscribed ? "Unsubscribe from these reports?" : "Unsubscribed"}>
          <Unsubscribe token={token ?? ""} view={outcome.view} />
        </AuthCard>
      ) : (
        <AuthCard title="This link did not work">
          <Notice kind="error">{outcome.message}</Notice>
        </AuthCard>
      )}
    </div>
  );
}

function Unsubscribe({ token, view }: { token: string; view: UnsubscribeView }) {
  const address = <span className="font-medium break-all">{view.email}</span>;
  const report = view.reportTitle ? (
    <>
      <span className="font-medium">“{view.reportTitle}”</span> from {view.organizationName}
    </>
  ) : (
    "this link report"
  );
  return (
    <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300" data-testid="report-unsubscribe">
      {view.subscribed ? (
        <>
          <p>
            Stop sending {report} to {address}? Nothing else changes: the report itself stays where it is.
          </p>
          <form method="post" action="/report-emails/unsubscribe/submit">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className={buttonClass}>
              Unsubscribe
            </button>
          </form>
        </>
      ) : (
        <p>
          {address} gets no more reports of {report}. If that was a mistake, ask the sender to add your address again:
          you will be asked to confirm.
        </p>
      )}
    </div>
  );
}
