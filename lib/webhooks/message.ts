import type { AlertEvent } from "../schemas/alerts";

/**
 * What one delivery sends, frozen when its event happens and stored with the delivery: the Standard
 * Webhooks body's `type`, `timestamp` and `data` (webhooks.md), and the words every chat message says
 * (the email's subject line, the page, the link, before → after). It names no channel: each kind renders
 * its body from it (./channels/), so every attempt of a delivery sends the same bytes, and an endpoint of
 * any kind can take any stored delivery. Pure.
 */

/** One before → after line, as lib/alerts/describe.ts words it. */
export interface Change {
  label: string;
  before: string;
  after: string;
}

/** The words of a chat message, in no channel's markup (each channel escapes them for its own). */
export interface MessageSummary {
  /** The sentence of the alert email's subject ("Link removed: yoursite.com on example.org/post"). */
  headline: string;
  pageUrl: string | null;
  /** The tracked link's target (a URL, or a domain for `domain` matches); null for page events. */
  target: string | null;
  changes: Change[];
  button: { label: string; url: string };
}

export interface WebhookMessage {
  type: string;
  /** ISO 8601: when the event happened (a ping: when it was asked for). */
  timestamp: string;
  data: Record<string, unknown>;
  summary: MessageSummary;
}

export interface OrganizationRef {
  id: string;
  name: string;
}

/** An alert event as its deliveries describe it (the alerts floor supplies the words). */
export interface EventDelivery {
  event: AlertEvent;
  monitor: { id: string; url: string };
  trackedLink: { id: string; target: string } | null;
  /** The monitor's page in the app. */
  appUrl: string;
  headline: string;
  changes: Change[];
}

export function eventMessage(input: EventDelivery, organization: OrganizationRef): WebhookMessage {
  return {
    type: input.event.type,
    timestamp: input.event.createdAt,
    data: {
      event: input.event,
      monitor: input.monitor,
      trackedLink: input.trackedLink,
      organization,
      appUrl: input.appUrl,
    },
    summary: {
      headline: input.headline,
      pageUrl: input.monitor.url,
      target: input.trackedLink?.target ?? null,
      changes: input.changes,
      button: { label: "Open the monitor", url: input.appUrl },
    },
  };
}

/** The `ping` a test sends: `data` is `{ organization, appUrl }` (appUrl: the app's webhooks page). */
export function pingMessage(organization: OrganizationRef, appUrl: string, now: Date): WebhookMessage {
  return {
    type: "ping",
    timestamp: now.toISOString(),
    data: { organization, appUrl },
    summary: {
      headline: `LinkLens test: this channel will get ${organization.name}'s link alerts`,
      pageUrl: null,
      target: null,
      changes: [],
      button: { label: "Open LinkLens", url: appUrl },
    },
  };
}

/**
 * A stored payload read back (jsonb). Rows written before the summary was channel-neutral hold it under
 * `slack`: they are read as they are, not migrated, because during a rolling deploy an instance still on
 * the older code keeps writing that shape after any migration has run, and an outbox row must never be
 * lost to a rename.
 */
export function asMessage(payload: Record<string, unknown>): WebhookMessage {
  if (payload.summary === undefined && payload.slack !== undefined) {
    const { slack, ...rest } = payload;
    return { ...rest, summary: slack } as unknown as WebhookMessage;
  }
  return payload as unknown as WebhookMessage;
}
