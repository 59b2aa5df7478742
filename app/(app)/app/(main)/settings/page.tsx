import { SettingsPanel } from "@/components/account/SettingsPanel";
import { pageContext } from "@/lib/account/page-context";
import { getConfig } from "@/lib/config";

// /app/settings — profile, password, sessions, email delivery status and (owners) the outbox.
export default async function SettingsPage() {
  const ctx = await pageContext("/app/settings");
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      <SettingsPanel name={ctx.user.name} email={ctx.user.email} isOwner={ctx.role === "owner"} mailConfigured={Boolean(getConfig().SMTP_URL)} currentSessionId={ctx.session.id} />
    </div>
  );
}
