"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Notice } from "@/components/account/ui";
import { Panel } from "@/components/analyzer/Panel";
import { CHAT_LABELS } from "@/lib/schemas/webhook-kinds";
import type { Webhook, WebhookDelivery, WebhookWithSecret } from "@/lib/schemas/webhooks";
import { NewWebhookForm } from "./NewWebhookForm";
import { SecretReveal } from "./SecretReveal";
import { WebhookCard } from "./WebhookCard";

export interface WebhookWithDeliveries {
  webhook: Webhook;
  deliveries: WebhookDelivery[];
}

/** The chat apps the registry knows, in words: "Slack, Discord, … or Telegram". */
const CHAT_APPS = `${CHAT_LABELS.slice(0, -1).join(", ")} or ${CHAT_LABELS.at(-1) ?? ""}`;

/**
 * The team's webhooks: alerts sent to chat apps or to the team's own tools. Admins and owners add, test,
 * disable, rotate and delete endpoints and retry deliveries; everyone else reads.
 */
export function WebhooksPanel({
  endpoints,
  canManage,
  limit,
}: {
  endpoints: WebhookWithDeliveries[];
  canManage: boolean;
  limit: number;
}) {
  const router = useRouter();
  const [info, setInfo] = useState<string | null>(null);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);

  function changed(message: string) {
    setInfo(message);
    router.refresh();
  }

  return (
    <div className="space-y-6">
      {info && <Notice kind="info">{info}</Notice>}
      {canManage && (
        <Panel id="new-webhook" title="New webhook">
          {created ? (
            <div className="space-y-2">
              <p className="text-sm">
                Added <span className="break-all font-mono text-xs">{created.url}</span>.
              </p>
              <SecretReveal secret={created.secret} onDone={() => setCreated(null)} />
            </div>
          ) : endpoints.length >= limit ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Your team has {limit} webhooks, the most it can have. Delete one to add another.
            </p>
          ) : (
            <NewWebhookForm
              onCreated={(webhook) => {
                setCreated(webhook);
                changed(`Added ${webhook.description || new URL(webhook.url).host}. Send a test to check it.`);
              }}
            />
          )}
        </Panel>
      )}
      <Panel id="webhook-list" title={`Webhooks (${endpoints.length})`}>
        {endpoints.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No webhooks yet.{" "}
            {canManage
              ? `Add a ${CHAT_APPS} webhook URL, or your own endpoint, to get every alert where your team works.`
              : `Admins of your team can send alerts to ${CHAT_APPS} or other tools here.`}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {endpoints.map(({ webhook, deliveries }) => (
              <WebhookCard
                key={webhook.id}
                webhook={webhook}
                deliveries={deliveries}
                canManage={canManage}
                onChanged={changed}
              />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
