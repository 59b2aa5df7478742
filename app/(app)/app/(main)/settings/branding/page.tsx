import Link from "next/link";
import { answerOf, BRANDING_PATH } from "@/components/account/answers";
import { BrandingPanel } from "@/components/account/branding/BrandingPanel";
import { pageContext } from "@/lib/auth/page-context";
import { can } from "@/lib/auth/roles";
import { getBranding } from "@/lib/branding/branding";
import { BrandingSchema } from "@/lib/schemas/branding";

// /app/settings/branding — how the team's client reports, report emails and PDFs look (admins edit, everyone reads).
export default async function BrandingPage() {
  const ctx = await pageContext("/app/settings/branding");
  const branding = answerOf(BRANDING_PATH, BrandingSchema, await getBranding(ctx));
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm">
          <Link href="/app/settings" className="text-blue-700 hover:underline dark:text-blue-300">
            Settings
          </Link>
        </p>
        <h1 className="text-2xl font-bold tracking-tight">Branding</h1>
      </div>
      <BrandingPanel
        initial={branding}
        canEdit={can(ctx.role, { branding: ["update"] })}
        organizationName={ctx.organization.name}
      />
    </div>
  );
}
