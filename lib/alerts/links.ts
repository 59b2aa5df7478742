import { resolveAuthSecret } from "../db/secret";
import { getConfig, listenOrigin } from "../config";
import { signMuteToken, type MuteAction } from "./tokens";

/**
 * Absolute links in alert emails. Emails are written by background checks with no request to take an
 * origin from, so they use SITE_URL (set it in production) or the listen address.
 */
export interface AlertLinks {
  monitor(monitorId: string): string;
  /** The one-click page a person opens (mutes on open, offers undo). */
  mute(action: MuteAction): string;
  /** RFC 8058 one-click endpoint for List-Unsubscribe (a mail client POSTs to it). */
  oneClick(action: MuteAction): string;
  settings(): string;
}

export function alertLinks(origin: string, secret: string): AlertLinks {
  const base = origin.replace(/\/+$/, "");
  return {
    monitor: (monitorId) => `${base}/app/monitors/${encodeURIComponent(monitorId)}`,
    mute: (action) => `${base}/mute?token=${signMuteToken(secret, action)}`,
    oneClick: (action) => `${base}/api/mute?token=${signMuteToken(secret, action)}`,
    settings: () => `${base}/app/settings#notifications`,
  };
}

/** The links of this process (SITE_URL or the listen address, and the auth secret). */
export function processAlertLinks(): AlertLinks {
  const config = getConfig();
  return alertLinks(config.SITE_URL ?? listenOrigin(config), resolveAuthSecret(config));
}

/** The headers that give mail clients a one-click unsubscribe button (RFC 2369 + RFC 8058). */
export function unsubscribeHeaders(links: AlertLinks, action: MuteAction): Record<string, string> {
  return { "List-Unsubscribe": `<${links.oneClick(action)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
