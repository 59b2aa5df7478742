"use client";

import { useState } from "react";
import { api } from "@/components/account/api";
import { Cell, ListHeader, rowClass } from "@/components/account/ListGrid";
import { Notice, secondaryButtonClass } from "@/components/account/ui";
import { WebhookDeliverySchema, type WebhookDelivery } from "@/lib/schemas/webhooks";

const STATUS_TONE: Record<WebhookDelivery["status"], string> = {
  delivered:
    "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200 dark:ring-emerald-800",
  pending: "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
  failed: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/50 dark:text-red-200 dark:ring-red-800",
};

function StatusBadge({ status }: { status: WebhookDelivery["status"] }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold capitalize ring-1 ${STATUS_TONE[status]}`}
    >
      {status}
    </span>
  );
}

/** "HTTP 404: the receiver …" under a bold "HTTP 404": the status once. */
function withoutStatus(error: string): string {
  const rest = error.replace(/^HTTP \d+: /, "");
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

const when = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

const COLUMNS = "lg:grid-cols-[9rem_7rem_5rem_minmax(0,1fr)_6rem]";

/** An endpoint's latest deliveries: what was sent, how the receiver answered, and Retry for admins. */
export function DeliveryList({
  webhookId,
  deliveries,
  canManage,
  onChanged,
}: {
  webhookId: string;
  deliveries: WebhookDelivery[];
  canManage: boolean;
  onChanged: (message: string) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function retry(delivery: WebhookDelivery) {
    setBusy(delivery.id);
    setError(null);
    const result = await api(
      "POST",
      `/api/account/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(delivery.id)}/retry`,
      undefined,
      WebhookDeliverySchema,
    );
    setBusy(null);
    if (!result.ok) return setError(result.error);
    onChanged(
      result.data.status === "delivered"
        ? "Delivered on retry."
        : `The retry failed: ${result.data.error ?? "no answer"}`,
    );
  }

  if (deliveries.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No deliveries yet. Send a test to see one.</p>;
  return (
    <div>
      <ListHeader columns={COLUMNS} labels={["When", "Event", "Status", "Answer", ""]} />
      <ul>
        {deliveries.map((delivery) => (
          <li key={delivery.id} className={`${rowClass} ${COLUMNS}`} data-testid="delivery-row">
            <Cell label="When" quiet>
              <span className="tabular-nums">{when(delivery.createdAt)}</span>
            </Cell>
            <Cell label="Event" quiet>
              <span className="font-mono text-xs">{delivery.type}</span>
            </Cell>
            <Cell label="Status" quiet>
              <StatusBadge status={delivery.status} />
              <span className="ml-1 text-xs text-slate-600 lg:ml-0 lg:block dark:text-slate-400">
                {delivery.attempt} {delivery.attempt === 1 ? "attempt" : "attempts"}
              </span>
            </Cell>
            <Cell label="Answer">
              <p className="break-words">
                {delivery.responseStatus !== null ? (
                  <span className="font-semibold">HTTP {delivery.responseStatus}</span>
                ) : null}
                {delivery.error ? (
                  <span className="text-slate-700 dark:text-slate-300">
                    {delivery.responseStatus !== null ? " — " : ""}
                    {withoutStatus(delivery.error)}
                  </span>
                ) : null}
                {delivery.status === "pending" && delivery.nextAttemptAt ? (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    Next attempt {when(delivery.nextAttemptAt)}
                  </span>
                ) : null}
              </p>
              {delivery.responseBody ? (
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer text-slate-600 dark:text-slate-400">
                    Receiver&apos;s answer
                  </summary>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 dark:bg-slate-800">
                    {delivery.responseBody}
                  </pre>
                </details>
              ) : null}
            </Cell>
            <Cell label="Actions" quiet className="lg:text-right">
              {canManage && delivery.status !== "delivered" && delivery.type !== "ping" ? (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy === delivery.id}
                  onClick={() => void retry(delivery)}
                  aria-label={`Retry the ${delivery.type} delivery of ${when(delivery.createdAt)}`}
                >
                  Retry
                </button>
              ) : null}
            </Cell>
          </li>
        ))}
      </ul>
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
