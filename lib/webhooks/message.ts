import type { AlertEvent } from "../schemas/alerts";

/**
 * What one delivery sends, frozen when its event happens and stored with the delivery: the Standard
 * Webhooks body's `type`, `timestamp` and `data` (webhooks.md), and the words of the Slack message (the
 * email's subject line, the page, the link, before → after). Each kind renders its body from it
 * (./bodies.ts), so every attempt of a delivery sends the same bytes. Pure.
 */

/** One before → after line, as lib/alerts/describe.ts words it. */
export interface Change {
  label: string;
  before: string;
  after: string;
}

export interface SlackSummary {
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
  slack: SlackSummary;
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
    slack: {
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
    slack: {
      headline: `LinkLens test: this channel will get ${organization.name}'s link alerts`,
      pageUrl: null,
      target: null,
      changes: [],
      button: { label: "Open LinkLens", url: appUrl },
    },
  };
}

/** A stored payload read back (jsonb); a row written by this code always has this shape. */
export function asMessage(payload: Record<string, unknown>): WebhookMessage {
  return payload as unknown as WebhookMessage;
}
