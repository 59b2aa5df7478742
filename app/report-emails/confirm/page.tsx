import type { Metadata } from "next";
import { AuthCard, buttonClass, Notice } from "@/components/account/ui";
import { SiteHeader } from "@/components/site/SiteChrome";
import { consentStatus, type ConsentView } from "@/lib/reports/consent";
import { ApiError } from "@/lib/errors";

export const metadata: Metadata = {
  title: "Confirm link reports — LinkLens",
  robots: { index: false },
  referrer: "no-referrer",
};
export const dynamic = "force-dynamic";

const TITLES: Record<ConsentView["state"], string> = {
  ready: "Confirm the link reports?",
  confirmed: "Reports confirmed",
  expired: "This link has expired",
  unsubscribed: "You unsubscribed",
};

// /report-emails/confirm?token=… — the link of a scheduled report's confirmation email, for a person
// without an account. Opening it changes nothing (mail scanners open links): it shows what the token asks
// and its state, with a plain form (no JavaScript needed) that POSTs /report-emails/confirm/submit.
export default async function ConfirmReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : null;
  let outcome: { ok: true; view: ConsentView } | { ok: false; message: string };
  try {
    outcome = { ok: true, view: await consentStatus(token) };
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
        <AuthCard title={TITLES[outcome.view.state]}>
          <Consent token={token ?? ""} view={outcome.view} />
        </AuthCard>
      ) : (
        <AuthCard title="This link did not work">
          <Notice kind="error">{outcome.message}</Notice>
        </AuthCard>
      )}
    </div>
  );
}

function Consent({ token, view }: { token: string; view: ConsentView }) {
  const report = <span className="font-medium">“{view.reportTitle}”</span>;
  const address = <span className="font-medium break-all">{view.email}</span>;
  return (
    <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300" data-testid="report-consent">
      {view.state === "ready" && (
        <>
          <p>
            {view.organizationName} wants to send {address} a link report, {report}, {view.when}: what changed on the
            pages that link to them, with the full report as a PDF.
          </p>
          <p>Nothing is sent until you confirm. Every report has a one-click unsubscribe link.</p>
          <form method="post" action="/report-emails/confirm/submit">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className={buttonClass}>
              Confirm the reports
            </button>
          </form>
        </>
      )}
      {view.state === "confirmed" && (
        <p>
          {address} gets {report} from {view.organizationName} {view.when}. Every report has a one-click unsubscribe
          link.
        </p>
      )}
      {view.state === "expired" && (
        <p>
          Confirmation links work for 7 days. Nothing is sent to {address}; to get {report}, ask {view.organizationName}{" "}
          to add your address again.
        </p>
      )}
      {view.state === "unsubscribed" && (
        <p>
          {address} gets no reports of {report} from {view.organizationName}. To get them again, ask{" "}
          {view.organizationName} to add your address anew: you will be asked to confirm.
        </p>
      )}
    </div>
  );
}
