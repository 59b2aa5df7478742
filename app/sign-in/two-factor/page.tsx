import type { Metadata } from "next";
import { AuthCard } from "@/components/account/ui";
import { SecondStepForm } from "@/components/account/SecondStepForm";
import { SiteHeader } from "@/components/site/SiteChrome";
import { safeNextPath } from "@/lib/account/next-path";

export const metadata: Metadata = { title: "Two-factor sign-in · LinkLens" };

// /sign-in/two-factor — the second step of sign-in, after a password or an emailed link (lib/auth/two-factor.ts).
export default async function SecondStepPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNextPath((await searchParams).next);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Two-factor sign-in">
        <SecondStepForm next={next} />
      </AuthCard>
    </div>
  );
}
