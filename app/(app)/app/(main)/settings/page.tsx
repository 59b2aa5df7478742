import { NotificationSettings } from "@/components/account/NotificationSettings";
import { SettingsPanel } from "@/components/account/SettingsPanel";
import { pageContext } from "@/lib/auth/page-context";
import { getPreferences } from "@/lib/alerts/preferences";
import { getConfig } from "@/lib/config";

// /app/settings — alert notifications, profile, password, sessions, email delivery status and (owners) the outbox.
export default async function SettingsPage() {
  const ctx = await pageContext("/app/settings");
  const preferences = await getPreferences(ctx);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      <NotificationSettings initial={preferences} />
      <SettingsPanel
        name={ctx.user.name}
        email={ctx.user.email}
        isOwner={ctx.role === "owner"}
        mailConfigured={Boolean(getConfig().SMTP_URL)}
        currentSessionId={ctx.session.id}
      />
    </div>
  );
}
