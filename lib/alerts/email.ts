import { html, safeHref, type SafeHtml } from "../mail/html";
import type { EmailContent } from "../mail/templates";
import { describeEvent, shortUrl, type DescribedEvent, type Description } from "./describe";

/**
 * Alert emails: plain typed templates with an HTML part built by the escaping `html` tag and a plain-text
 * part. Every email names the page and the link, shows before → after, links to the monitor in the app
 * and carries a one-click link that mutes that monitor for this recipient.
 */

export interface EventForEmail extends DescribedEvent {
  target: string | null;
}

export interface MonitorSection {
  monitorUrl: string;
  /** Absolute URL of the monitor in the app. */
  appUrl: string;
  /** Absolute one-click mute link for this recipient and monitor. */
  muteUrl: string;
  events: EventForEmail[];
}

const SECTION_STYLE = "margin:0 0 24px;padding:16px;border:1px solid #e2e8f0;border-radius:10px";
const BUTTON_STYLE =
  "background:#4f46e5;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;display:inline-block";

function described(section: MonitorSection): Description[] {
  return section.events.map((event) => describeEvent(event, { pageUrl: section.monitorUrl, target: event.target }));
}

function htmlSection(section: MonitorSection, heading: boolean): SafeHtml {
  const items = described(section).map(
    (d) => html`<div style="margin:0 0 16px">
<p style="margin:0 0 6px;font-weight:600">${d.headline}</p>
<p style="margin:0 0 8px;color:#334155">${d.summary}</p>
<table style="border-collapse:collapse;font-size:14px">${d.changes.map(
      (c) =>
        html`<tr><td style="padding:2px 12px 2px 0;color:#64748b">${c.label}</td><td style="padding:2px 8px;text-decoration:line-through;color:#94a3b8">${c.before}</td><td style="padding:2px 8px">→ ${c.after}</td></tr>`,
    )}</table></div>`,
  );
  return html`<div style="${SECTION_STYLE}">
${heading ? html`<h2 style="font-size:16px;margin:0 0 12px;word-break:break-all">${shortUrl(section.monitorUrl)}</h2>` : ""}${items}
<p style="margin:16px 0 8px"><a href="${safeHref(section.appUrl)}" style="${BUTTON_STYLE}">Open the monitor</a></p>
<p style="margin:0;font-size:12px;color:#64748b"><a href="${safeHref(section.muteUrl)}" style="color:#64748b">Mute this monitor</a> — no more alert emails about this page for you.</p>
</div>`;
}

function textSection(section: MonitorSection, heading: boolean): string {
  const lines: string[] = [];
  if (heading) lines.push(`== ${section.monitorUrl} ==`, "");
  for (const d of described(section)) {
    lines.push(d.headline, d.summary);
    for (const c of d.changes) lines.push(`  ${c.label}: ${c.before || "—"} → ${c.after}`);
    lines.push("");
  }
  lines.push(`Open the monitor: ${section.appUrl}`, `Mute this monitor: ${section.muteUrl}`);
  return lines.join("\n");
}

function page(title: string, body: SafeHtml, footer: string): string {
  return html`<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:600px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${title}</h1>${body}
<p style="font-size:12px;color:#64748b">${footer}</p></div></body></html>`.value;
}

const FOOTER =
  "You get this email because you are a member of a LinkLens team that monitors this page. Choose immediate, daily or weekly emails, or none, under Settings → Notifications.";

/** One check's changes on one page, for one recipient. */
export function alertEmail(section: MonitorSection): EmailContent {
  const first = described(section)[0];
  const more = section.events.length - 1;
  const subject = `${first?.headline ?? `Changes on ${shortUrl(section.monitorUrl)}`}${more > 0 ? ` (+${more} more)` : ""}`;
  return {
    kind: "alert",
    subject,
    html: page(subject, htmlSection(section, false), FOOTER),
    text: `${textSection(section, false)}\n\n${FOOTER}\n`,
  };
}

/** A period's changes, grouped by monitor. */
export function digestEmail(input: {
  period: "daily" | "weekly";
  organizationName: string;
  sections: MonitorSection[];
  settingsUrl: string;
}): EmailContent {
  const count = input.sections.reduce((sum, section) => sum + section.events.length, 0);
  const subject = `Your ${input.period} LinkLens digest: ${count} change${count === 1 ? "" : "s"} on ${input.sections.length} page${input.sections.length === 1 ? "" : "s"} (${input.organizationName})`;
  const body = html`${input.sections.map((section) => htmlSection(section, true))}<p style="font-size:12px;color:#64748b"><a href="${safeHref(input.settingsUrl)}">Notification settings</a></p>`;
  const text = `${input.sections.map((section) => textSection(section, true)).join("\n\n")}\n\nNotification settings: ${input.settingsUrl}\n\n${FOOTER}\n`;
  return { kind: "digest", subject, html: page(subject, body, FOOTER), text };
}
