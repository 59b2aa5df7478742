import { WebhooksPanel } from "@/components/account/webhooks/WebhooksPanel";
import { pageContext } from "@/lib/auth/page-context";
import { can } from "@/lib/auth/roles";
import { CHAT_LABELS } from "@/lib/schemas/webhook-kinds";
import { MAX_WEBHOOKS, WebhookDeliverySchema, WebhookSchema } from "@/lib/schemas/webhooks";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { allWebhooks } from "@/lib/webhooks/endpoints";

/** Deliveries shown per endpoint; the API lists them all. */
const RECENT = 5;

// /app/webhooks — alerts to chat apps and the team's own tools: endpoints, tests, deliveries and retries (admins manage, everyone reads).
export default async function WebhooksPage() {
  const ctx = await pageContext("/app/webhooks");
  const webhooks = WebhookSchema.array().parse(await allWebhooks(ctx));
  const endpoints = await Promise.all(
    webhooks.map(async (webhook) => ({
      webhook,
      deliveries: WebhookDeliverySchema.array().parse((await listDeliveries(ctx, webhook.id, { limit: RECENT })).items),
    })),
  );
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          Every alert your team gets by email can also go to your team&apos;s chat ({CHAT_LABELS.join(", ")}) or to your
          own tools, signed with the{" "}
          <a className="underline" href="https://www.standardwebhooks.com/">
            Standard Webhooks
          </a>{" "}
          scheme. A receiver that keeps failing is retried for about two and a half days, then disabled, and admins get
          an email.
        </p>
      </div>
      <WebhooksPanel endpoints={endpoints} canManage={can(ctx.role, { webhook: ["manage"] })} limit={MAX_WEBHOOKS} />
    </div>
  );
}
