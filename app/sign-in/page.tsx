import type { Metadata } from "next";
import { AuthCard, Notice } from "@/components/account/ui";
import { SignInForm } from "@/components/account/SignInForm";
import { SiteHeader } from "@/components/site/SiteChrome";
import { safeNextPath } from "@/lib/account/next-path";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Sign in to LinkLens" };

// /sign-in — password or emailed link.
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const failed = typeof params.error === "string";
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Sign in to LinkLens">
        {failed && (
          <div className="mb-4">
            <Notice kind="error">That sign-in link is expired or was already used. Ask for a new one.</Notice>
          </div>
        )}
        <SignInForm next={next} mailConfigured={Boolean(getConfig().SMTP_URL)} />
      </AuthCard>
    </div>
  );
}
