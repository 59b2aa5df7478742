import type { Metadata } from "next";
import { AuthCard } from "@/components/account/ui";
import { SignUpForm } from "@/components/account/SignUpForm";
import { SiteHeader } from "@/components/site/SiteChrome";
import { safeNextPath } from "@/lib/account/next-path";

export const metadata: Metadata = { title: "Create your LinkLens account" };

// /sign-up — email + password; creates the user's personal team.
export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNextPath((await searchParams).next);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <SiteHeader />
      <AuthCard title="Create your LinkLens account">
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          Save audits, monitor link placements and work as a team.
        </p>
        <SignUpForm next={next} />
      </AuthCard>
    </div>
  );
}
