import { z } from "zod";
import { DemoAnalyzeRequestSchema } from "../api/schemas";
import { alertsQuerySchema, AlertEventSchema, NotificationPreferencesSchema, preferencesUpdateSchema } from "./alerts";
import { AuditComparisonSchema, AuditSchema, AuditSummarySchema, auditExportQuerySchema, compareQuerySchema, getAuditQuerySchema, listAuditsQuerySchema, trackSchema } from "./audits";
import { listPaging, pageOf } from "./common";
import { createGroupSchema, DomainGroupSchema, updateGroupSchema } from "./domain-groups";
import {
  CheckSchema,
  exportQuerySchema,
  ImportResultSchema,
  importQuerySchema,
  linkListSchema,
  linkPatchSchema,
  MonitorSchema,
  monitorPatchSchema,
  newLinkSchema,
  newMonitorSchema,
  pageQuerySchema,
  TrackedLinkSchema,
  TransitionSchema,
} from "./monitors";
import { AuditLogItemSchema, OutboxItemSchema } from "./settings";
import { createWebhookSchema, updateWebhookSchema, WebhookDeliverySchema, WebhookSchema, WebhookWithSecretSchema } from "./webhooks";
import { CreatedShareSchema, createShareSchema, ShareSchema } from "./shares";
import { EvidenceCaptureSchema, evidenceListQuerySchema, EvidenceSchema } from "./evidence";
import { DailyStatsSchema, dailyStatsQuerySchema, UptimeBatchSchema, uptimeBatchQuerySchema, UptimeSchema, uptimeQuerySchema } from "./stats";
import { activeOrganizationSchema, InvitationSchema, inviteSchema, MeSchema, MemberSchema, MembershipSchema, roleChangeSchema, transferSchema } from "./team";

/**
 * The account API's operation catalog (account-api.md and the files that extend it): every route under
 * /api/account, with the least role it needs, its query and body schemas and its answer. It feeds the
 * account OpenAPI document (GET /api/account/openapi.json, signed-in only); a test checks that every
 * account route is here and everything here is a route.
 */

export type AccountMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type LeastRole = "viewer" | "member" | "admin" | "owner";

export interface AccountOperation {
  method: AccountMethod;
  /** OpenAPI path template: `{id}` for a path parameter. */
  path: string;
  operationId: string;
  summary: string;
  role: LeastRole;
  tag: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body's media type when it is not JSON (CSV imports). */
  bodyType?: "text/csv";
  /** The success status and its body: a schema, "none" (204), or a download's media types. */
  status: 200 | 201 | 204;
  response?: z.ZodType;
  download?: readonly string[];
}

const pagingQuery = z.strictObject(listPaging);

const op = (method: AccountMethod, path: string, operationId: string, role: LeastRole, tag: string, summary: string, rest: Omit<AccountOperation, "method" | "path" | "operationId" | "role" | "tag" | "summary">): AccountOperation => ({
  method,
  path,
  operationId,
  role,
  tag,
  summary,
  ...rest,
});

export const ACCOUNT_OPERATIONS: readonly AccountOperation[] = [
  op("GET", "/api/account/me", "getMe", "viewer", "Team", "The signed-in user, the active organization, the role there and every membership.", { status: 200, response: MeSchema }),
  op("PUT", "/api/account/active-organization", "switchOrganization", "viewer", "Team", "Switch the session to another of the user's organizations.", { status: 200, body: activeOrganizationSchema, response: MembershipSchema }),
  op("GET", "/api/account/members", "listMembers", "viewer", "Team", "Members of the active organization with their roles, oldest first.", { status: 200, query: pagingQuery, response: pageOf(MemberSchema) }),
  op("PATCH", "/api/account/members/{id}", "changeRole", "admin", "Team", "Change a member's role (owners manage admins and owners).", { status: 200, body: roleChangeSchema, response: MemberSchema }),
  op("DELETE", "/api/account/members/{id}", "removeMember", "admin", "Team", "Remove a member (never the last owner).", { status: 204 }),
  op("GET", "/api/account/invitations", "listInvitations", "viewer", "Team", "Pending invitations, newest first.", { status: 200, query: pagingQuery, response: pageOf(InvitationSchema) }),
  op("POST", "/api/account/invitations", "invite", "admin", "Team", "Invite an email address with a role (admins invite below admin).", { status: 201, body: inviteSchema, response: InvitationSchema }),
  op("DELETE", "/api/account/invitations/{id}", "cancelInvitation", "admin", "Team", "Cancel a pending invitation.", { status: 204 }),
  op("POST", "/api/account/organization/leave", "leaveOrganization", "viewer", "Team", "Leave the active organization (the last owner cannot).", { status: 204 }),
  op("POST", "/api/account/organization/transfer", "transferOwnership", "owner", "Team", "Make another member owner; the caller becomes admin.", { status: 200, body: transferSchema, response: MemberSchema }),
  op("GET", "/api/account/audit-log", "listAuditLog", "admin", "Team", "Who did what and when, newest first.", { status: 200, query: pagingQuery, response: pageOf(AuditLogItemSchema) }),
  op("GET", "/api/account/outbox", "listOutbox", "owner", "Team", "Emails of the organization and of the owner, with their delivery (other members' personal links hidden).", { status: 200, query: pagingQuery, response: pageOf(OutboxItemSchema) }),

  op("GET", "/api/account/domain-groups", "listDomainGroups", "viewer", "Audits", "Domain groups, oldest first.", { status: 200, query: pagingQuery, response: pageOf(DomainGroupSchema) }),
  op("POST", "/api/account/domain-groups", "createDomainGroup", "member", "Audits", "A new group (409 for a taken name or site).", { status: 201, body: createGroupSchema, response: DomainGroupSchema }),
  op("GET", "/api/account/domain-groups/{id}", "getDomainGroup", "viewer", "Audits", "One domain group.", { status: 200, response: DomainGroupSchema }),
  op("PATCH", "/api/account/domain-groups/{id}", "updateDomainGroup", "member", "Audits", "Rename a group or replace its domains.", { status: 200, body: updateGroupSchema, response: DomainGroupSchema }),
  op("DELETE", "/api/account/domain-groups/{id}", "deleteDomainGroup", "member", "Audits", "Remove a group (saved audits keep their group names).", { status: 204 }),
  op("GET", "/api/account/audits", "listAudits", "viewer", "Audits", "Saved audits, newest first; ?url= matches the final or the requested URL.", { status: 200, query: listAuditsQuerySchema, response: pageOf(AuditSummarySchema) }),
  op("POST", "/api/account/audits", "createAudit", "member", "Audits", "Audit a URL or pasted HTML and save it (one unit of the daily quota).", { status: 201, body: DemoAnalyzeRequestSchema, response: AuditSchema }),
  op("GET", "/api/account/audits/{id}", "getAudit", "viewer", "Audits", "One audit with its links; ?include=snapshot adds sanitizedHtml.", { status: 200, query: getAuditQuerySchema, response: AuditSchema }),
  op("DELETE", "/api/account/audits/{id}", "deleteAudit", "member", "Audits", "Delete an audit and its links.", { status: 204 }),
  op("POST", "/api/account/audits/{id}/rerun", "rerunAudit", "member", "Audits", "A new audit of the same URL or stored paste, with today's groups.", { status: 201, response: AuditSchema }),
  op("GET", "/api/account/audits/{id}/compare", "compareAudits", "viewer", "Audits", "Links added, removed and changed since another audit.", { status: 200, query: compareQuerySchema, response: AuditComparisonSchema }),
  op("GET", "/api/account/audits/{id}/export", "exportAudit", "member", "Audits", "The audit's links as a streamed CSV or JSON download.", { status: 200, query: auditExportQuerySchema, download: ["text/csv", "application/json"] }),
  op("POST", "/api/account/audits/{id}/track", "trackFromAudit", "member", "Monitoring", "Track the link at a position of a saved audit on the audit's page.", { status: 201, body: trackSchema, response: TrackedLinkSchema }),

  op("GET", "/api/account/monitors", "listMonitors", "viewer", "Monitoring", "Monitored pages, newest first, each with its tracked links.", { status: 200, query: pagingQuery, response: pageOf(MonitorSchema) }),
  op("POST", "/api/account/monitors", "createMonitor", "member", "Monitoring", "Monitor a page (due at once).", { status: 201, body: newMonitorSchema, response: MonitorSchema }),
  op("GET", "/api/account/monitors/{id}", "getMonitor", "viewer", "Monitoring", "One monitored page with its tracked links.", { status: 200, response: MonitorSchema }),
  op("PATCH", "/api/account/monitors/{id}", "updateMonitor", "member", "Monitoring", "Change the interval, pause, or the tags.", { status: 200, body: monitorPatchSchema, response: MonitorSchema }),
  op("DELETE", "/api/account/monitors/{id}", "deleteMonitor", "member", "Monitoring", "Delete the page, its links and history.", { status: 204 }),
  op("POST", "/api/account/monitors/{id}/check", "checkNow", "member", "Monitoring", "Check the page now and answer the updated monitor (409 while a check runs).", { status: 200, response: MonitorSchema }),
  op("GET", "/api/account/monitors/{id}/checks", "listChecks", "viewer", "Monitoring", "The page's checks, newest first.", { status: 200, query: pageQuerySchema, response: pageOf(CheckSchema) }),
  op("POST", "/api/account/monitors/{id}/links", "addLink", "member", "Monitoring", "Track one more link on the page (409 for a target already tracked there).", { status: 201, body: newLinkSchema, response: TrackedLinkSchema }),
  op("GET", "/api/account/links", "listLinks", "viewer", "Monitoring", "Every tracked link, newest first; filters state, tag, monitorId, q.", { status: 200, query: linkListSchema, response: pageOf(TrackedLinkSchema) }),
  op("GET", "/api/account/links/{id}", "getLink", "viewer", "Monitoring", "One tracked link.", { status: 200, response: TrackedLinkSchema }),
  op("PATCH", "/api/account/links/{id}", "updateLink", "member", "Monitoring", "Target, match, expectations, notes, cost, expiresOn (a new target or match resets it to pending).", { status: 200, body: linkPatchSchema, response: TrackedLinkSchema }),
  op("DELETE", "/api/account/links/{id}", "deleteLink", "member", "Monitoring", "Stop tracking a link.", { status: 204 }),
  op("GET", "/api/account/links/{id}/history", "linkHistory", "viewer", "Monitoring", "The link's state changes with before and after, newest first.", { status: 200, query: pageQuerySchema, response: pageOf(TransitionSchema) }),
  op("POST", "/api/account/monitors/{id}/evidence", "captureEvidence", "member", "Evidence", "Render the page now and keep a manual evidence record per tracked link (a page error stores nothing). Spends one unit of the daily audit quota (ORG_AUDITS_PER_DAY, shared with saved audits: 429 when spent, given back when the capture fails); takes no body (over 16 KiB: 413).", { status: 201, response: EvidenceCaptureSchema }),
  op("GET", "/api/account/links/{id}/evidence", "listLinkEvidence", "viewer", "Evidence", "The tracked link's evidence records, newest first.", { status: 200, query: evidenceListQuerySchema, response: pageOf(EvidenceSchema) }),
  op("GET", "/api/account/evidence/{id}", "getEvidence", "viewer", "Evidence", "One evidence record.", { status: 200, response: EvidenceSchema }),
  op("GET", "/api/account/evidence/{id}/screenshot.png", "getEvidenceScreenshot", "viewer", "Evidence", "The record's screenshot, 1280 px wide, the link outlined.", { status: 200, download: ["image/png"] }),
  op("GET", "/api/account/evidence/{id}/page.html", "getEvidencePageHtml", "viewer", "Evidence", "The page's HTML as the server sent it: a text/plain attachment, never rendered.", { status: 200, download: ["text/plain"] }),
  op("GET", "/api/account/evidence/{id}/report.pdf", "getEvidenceReport", "viewer", "Evidence", "The record on one printed page, for a vendor (PDF attachment).", { status: 200, download: ["application/pdf"] }),
  op("POST", "/api/account/links/import", "importLinks", "member", "Monitoring", "Tracked links from CSV (at most 5,000 rows and 5 MiB; ?dryRun=1 validates only).", { status: 200, query: importQuerySchema, bodyType: "text/csv", response: ImportResultSchema }),
  op("GET", "/api/account/links/export", "exportLinks", "member", "Monitoring", "Every tracked link as a CSV or JSON download.", { status: 200, query: exportQuerySchema, download: ["text/csv", "application/json"] }),

  op("GET", "/api/account/links/{id}/uptime", "linkUptime", "viewer", "History", "The link's state at the end of each UTC day and its live share (?days=30|90|365, default 90).", { status: 200, query: uptimeQuerySchema, response: UptimeSchema }),
  op("GET", "/api/account/links/uptime", "linksUptime", "viewer", "History", "The uptimes of up to 100 tracked links in one request (?ids=a,b,c; ids not in the organization are left out).", { status: 200, query: uptimeBatchQuerySchema, response: UptimeBatchSchema }),
  op("GET", "/api/account/stats/daily", "dailyStats", "viewer", "History", "Tracked links per state and verdict at the end of each UTC day, oldest first (?days=30|90|365, default 30).", { status: 200, query: dailyStatsQuerySchema, response: DailyStatsSchema }),

  op("GET", "/api/account/shares", "listShares", "viewer", "Reports", "Share links of client reports, newest first (never their URLs).", { status: 200, query: pagingQuery, response: pageOf(ShareSchema) }),
  op("POST", "/api/account/shares", "createShare", "admin", "Reports", "A share link of a tag, a monitor or an audit; its URL is in this answer only.", { status: 201, body: createShareSchema, response: CreatedShareSchema }),
  op("DELETE", "/api/account/shares/{id}", "revokeShare", "admin", "Reports", "Revoke a share link (its page answers 404 from then on).", { status: 204 }),

  op("GET", "/api/account/alerts", "listAlerts", "viewer", "Alerts", "Alert events, newest first (filters: type, monitorId, trackedLinkId, since).", { status: 200, query: alertsQuerySchema, response: pageOf(AlertEventSchema) }),
  op("GET", "/api/account/notifications", "getNotifications", "viewer", "Alerts", "The caller's alert-email preferences in the active organization.", { status: 200, response: NotificationPreferencesSchema }),
  op("PUT", "/api/account/notifications", "updateNotifications", "viewer", "Alerts", "Change any of email, types, digestHourUtc (the rest stay).", { status: 200, body: preferencesUpdateSchema, response: NotificationPreferencesSchema }),
  op("GET", "/api/account/webhooks", "listWebhooks", "viewer", "Webhooks", "Webhook endpoints, oldest first (a chat kind's url masked).", { status: 200, query: pagingQuery, response: pageOf(WebhookSchema) }),
  op("POST", "/api/account/webhooks", "createWebhook", "admin", "Webhooks", "A new endpoint; the answer holds its signing secret and, for a chat kind, its whole url, both shown only now (at most 10 per organization: 409).", { status: 201, body: createWebhookSchema, response: WebhookWithSecretSchema }),
  op("GET", "/api/account/webhooks/{id}", "getWebhook", "viewer", "Webhooks", "One endpoint (a chat kind's url masked).", { status: 200, response: WebhookSchema }),
  op("PATCH", "/api/account/webhooks/{id}", "updateWebhook", "admin", "Webhooks", "Change url, types, enabled or description (re-enabling resets consecutiveFailures). A url equal to the stored one's masked form keeps the stored url; any other masked url is 400 INVALID_URL.", { status: 200, body: updateWebhookSchema, response: WebhookSchema }),
  op("DELETE", "/api/account/webhooks/{id}", "deleteWebhook", "admin", "Webhooks", "Remove an endpoint and its deliveries (pending ones stop).", { status: 204 }),
  op("POST", "/api/account/webhooks/{id}/rotate-secret", "rotateWebhookSecret", "admin", "Webhooks", "A new signing secret, shown only now; the old one stops signing at once (a chat kind's url stays masked).", { status: 200, response: WebhookWithSecretSchema }),
  op("POST", "/api/account/webhooks/{id}/test", "testWebhook", "admin", "Webhooks", "Send a ping now (one attempt, never retried) and answer the delivery once it is over.", { status: 200, response: WebhookDeliverySchema }),
  op("GET", "/api/account/webhooks/{id}/deliveries", "listWebhookDeliveries", "viewer", "Webhooks", "The endpoint's deliveries, newest first, with the last answer of each.", { status: 200, query: pagingQuery, response: pageOf(WebhookDeliverySchema) }),
  op("POST", "/api/account/webhooks/{id}/deliveries/{deliveryId}/retry", "retryWebhookDelivery", "admin", "Webhooks", "Re-send a failed or pending delivery now (same webhook-id); 409 while an attempt runs or once delivered.", { status: 200, response: WebhookDeliverySchema }),
  op("GET", "/api/account/openapi.json", "getAccountOpenApi", "viewer", "Team", "This document: the account API in OpenAPI 3.1 (signed-in users only).", { status: 200, response: z.record(z.string(), z.unknown()) }),
];
