import Link from "next/link";
import { answerOf, OUTBOX_PATH, SESSIONS_PATH } from "@/components/account/answers";
import { Panel } from "@/components/analyzer/Panel";
import { NotificationSettings } from "@/components/account/NotificationSettings";
import { SecurityPanel } from "@/components/account/SecurityPanel";
import { SettingsPanel } from "@/components/account/SettingsPanel";
import { pageContext, pageSessions } from "@/lib/auth/page-context";
import { NotificationPreferencesSchema } from "@/lib/schemas/alerts";
import { can } from "@/lib/auth/roles";
import { getPreferences } from "@/lib/alerts/preferences";
import { getConfig } from "@/lib/config";
import { listOutbox } from "@/lib/mail/outbox";
import { pageOf } from "@/lib/schemas/common";
import { DeviceSessionSchema, OutboxItemSchema } from "@/lib/schemas/settings";

// /app/settings — two-factor sign-in, branding (a link to its page), alert notifications, profile, password, sessions, email delivery status and
// (owners) the outbox. It serves a member whose team requires two-factor sign-in before they turned it on: this
// is where they turn it on (the team's own data, the outbox, waits until then, as its route does).
export default async function SettingsPage() {
  const ctx = await pageContext("/app/settings", { twoFactorExempt: true });
  const enrolling = ctx.organization.requireTwoFactor && !ctx.user.twoFactorEnabled;
  const preferences = NotificationPreferencesSchema.parse(await getPreferences(ctx));
  const sessions = answerOf(SESSIONS_PATH, DeviceSessionSchema.array(), await pageSessions());
  const outbox =
    !enrolling && can(ctx.role, { outbox: ["read"] })
      ? answerOf(OUTBOX_PATH, pageOf(OutboxItemSchema), await listOutbox(ctx, { limit: 50 }))
      : undefined;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      <SecurityPanel
        email={ctx.user.email}
        twoFactorEnabled={ctx.user.twoFactorEnabled}
        requiredBy={ctx.organization.requireTwoFactor ? ctx.organization.name : null}
      />
      <Panel id="branding" title="Branding">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Your logo, name, colour and footer on client reports, report emails and PDFs.{" "}
          <Link href="/app/settings/branding" className="font-medium text-blue-700 hover:underline dark:text-blue-300">
            {can(ctx.role, { branding: ["update"] }) ? "Edit the branding" : "See the branding"}
          </Link>
        </p>
      </Panel>
      <NotificationSettings initial={preferences} />
      <SettingsPanel
        name={ctx.user.name}
        email={ctx.user.email}
        isOwner={ctx.role === "owner" && !enrolling}
        mailConfigured={Boolean(getConfig().SMTP_URL)}
        currentSessionId={ctx.session.id}
        initial={{ sessions, outbox }}
      />
    </div>
  );
}
