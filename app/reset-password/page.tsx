import type { Metadata } from "next";
import { AuthCard } from "@/components/account/ui";
import { ResetPasswordForm } from "@/components/account/ResetPasswordForm";
import { SiteHeader } from "@/components/site/SiteChrome";

export const metadata: Metadata = { title: "Choose a new password" };

// /reset-password?token=… — where a password-reset email's link lands.
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const token = (await searchParams).token;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Choose a new password">
        <ResetPasswordForm token={typeof token === "string" ? token : null} />
      </AuthCard>
    </div>
  );
}
