"use client";

import { useState } from "react";
import { api } from "@/components/account/api";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import { ALERT_TYPES } from "@/lib/schemas/alerts";
import { WEBHOOK_KIND_INFO } from "@/lib/schemas/webhook-kinds";
import { z, type ZodType } from "zod";
import {
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  type Webhook,
  type WebhookDelivery,
} from "@/lib/schemas/webhooks";
import { DeliveryList } from "./DeliveryList";
import { SecretReveal } from "./SecretReveal";

function HealthBadge({ webhook }: { webhook: Webhook }) {
  const [label, tone] = !webhook.enabled
    ? [
        "Disabled",
        "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
      ]
    : webhook.consecutiveFailures > 0
      ? [
          `Failing ×${webhook.consecutiveFailures}`,
          "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/50 dark:text-red-200 dark:ring-red-800",
        ]
      : [
          "Active",
          "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200 dark:ring-emerald-800",
        ];
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${tone}`}>{label}</span>;
}

const typesText = (types: readonly string[]) =>
  types.length === ALERT_TYPES.length ? "every alert" : types.length === 0 ? "test pings only" : types.join(", ");

/** One endpoint: where it points, how it is doing, its actions (admins) and its latest deliveries. */
export function WebhookCard({
  webhook,
  deliveries,
  canManage,
  onChanged,
}: {
  webhook: Webhook;
  deliveries: WebhookDelivery[];
  canManage: boolean;
  onChanged: (message: string) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const base = `/api/account/webhooks/${encodeURIComponent(webhook.id)}`;
  const name = webhook.description || new URL(webhook.url).host;

  async function act<T>(
    method: string,
    path: string,
    body: unknown,
    answer: ZodType<T>,
    done: (data: T) => string | null,
  ) {
    setBusy(true);
    setError(null);
    const result = await api(method, path, body, answer);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    const message = done(result.data);
    if (message) onChanged(message);
  }

  const test = () =>
    act("POST", `${base}/test`, undefined, WebhookDeliverySchema, (d) =>
      d.status === "delivered"
        ? `Test delivered to ${name} (HTTP ${d.responseStatus}).`
        : `The test failed: ${d.error ?? "no answer"}`,
    );
  const toggle = () =>
    act("PATCH", base, { enabled: !webhook.enabled }, WebhookSchema, (w) =>
      w.enabled ? `Enabled ${name}.` : `Disabled ${name}: nothing more is sent to it.`,
    );
  const rotate = () =>
    act("POST", `${base}/rotate-secret`, undefined, WebhookWithSecretSchema, (w) => {
      setSecret(w.secret);
      return null;
    });
  const remove = () => act("DELETE", base, undefined, z.null(), () => `Deleted ${name}.`);

  return (
    <li className="space-y-3 py-4" data-testid={`webhook-${webhook.description || webhook.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">
            {name}{" "}
            <span className="ml-1 align-middle text-xs font-medium text-slate-600 dark:text-slate-400">
              {WEBHOOK_KIND_INFO[webhook.kind].label}
            </span>
          </h3>
          <p className="break-all font-mono text-xs text-slate-700 dark:text-slate-300">{webhook.url}</p>
          {/* The API masks a chat URL after creation (it is a credential); nothing here ever sends it back. */}
          {webhook.url.endsWith("…") && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              The rest of this URL is hidden: it works as a password for the channel.
            </p>
          )}
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Sends {typesText(webhook.types)}.</p>
        </div>
        <HealthBadge webhook={webhook} />
      </div>
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy}
            onClick={() => void test()}
            aria-label={`Send a test to ${name}`}
          >
            Send test
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy}
            onClick={() => void toggle()}
            aria-label={`${webhook.enabled ? "Disable" : "Enable"} ${name}`}
          >
            {webhook.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy}
            onClick={() => void rotate()}
            aria-label={`Rotate the secret of ${name}`}
          >
            Rotate secret
          </button>
          {confirming ? (
            <span className="inline-flex flex-wrap items-center gap-2 text-sm">
              Delete {name}?
              <button
                type="button"
                className="font-semibold text-red-800 underline dark:text-red-300"
                onClick={() => void remove()}
              >
                Yes, delete
              </button>
              <button type="button" className="underline" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setConfirming(true)}
              aria-label={`Delete ${name}`}
            >
              Delete
            </button>
          )}
        </div>
      )}
      {secret && <SecretReveal secret={secret} onDone={() => setSecret(null)} />}
      {error && <Notice kind="error">{error}</Notice>}
      <div>
        <h4 className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">Latest deliveries</h4>
        <DeliveryList webhookId={webhook.id} deliveries={deliveries} canManage={canManage} onChanged={onChanged} />
      </div>
    </li>
  );
}
