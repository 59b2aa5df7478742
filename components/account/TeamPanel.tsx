"use client";

import { useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import { pageOf, type Page } from "@/lib/schemas/common";
import {
  InvitationSchema,
  MemberSchema,
  OrganizationSettingsSchema,
  type Invitation,
  type Member,
  type Role,
} from "@/lib/schemas/team";
import { api, loadPage, type ApiResult } from "./api";
import { INVITATIONS_PATH, MEMBERS_PATH, type Answer } from "./answers";
import { Cell, ListHeader, rowClass } from "./ListGrid";
import { LocalTime } from "./LocalTime";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";
import { mutate, useApi } from "./use-api";
import { useHydrated } from "./useHydrated";

const MEMBER_COLUMNS = "lg:grid-cols-[minmax(0,1fr)_8rem_14rem]"; // fixed widths: the header row must line up
const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

const MemberListSchema = pageOf(MemberSchema);
const InvitationListSchema = pageOf(InvitationSchema);

/**
 * Members, roles and invitations of the active team (the server's first, each list read again after an
 * action that changes it); edit controls only for roles that may use them.
 */
export function TeamPanel({
  role,
  userId,
  security,
  initial,
}: {
  role: Role;
  userId: string;
  /** Whether the team requires two-factor sign-in, and whether the caller has it on. */
  security: { requireTwoFactor: boolean; ownTwoFactor: boolean };
  initial: { members: Answer<Page<Member>>; invitations: Answer<Page<Invitation>> };
}) {
  const hydrated = useHydrated();
  const memberList = useApi(MEMBERS_PATH, MemberListSchema, { initial: initial.members });
  const invitationList = useApi(INVITATIONS_PATH, InvitationListSchema, { initial: initial.invitations });
  const members = memberList.data?.items ?? [];
  const invitations = invitationList.data?.items ?? [];
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? memberList.error ?? invitationList.error;
  const [info, setInfo] = useState<string | null>(null);
  const [requireTwoFactor, setRequireTwoFactor] = useState(security.requireTwoFactor);
  const [savingRequirement, setSavingRequirement] = useState(false);
  const canManage = RANK[role] >= RANK.admin;
  const manageable = (target: Role) => canManage && (role === "owner" || RANK[target] < RANK.admin);
  const soleOwner = role === "owner" && members.filter((m) => m.role === "owner").length === 1;
  const assignable: Role[] = role === "owner" ? ["viewer", "member", "admin", "owner"] : ["viewer", "member"];

  /** Runs an action; once it succeeded, the list it changed is read again. */
  async function act(action: Promise<ApiResult<unknown>>, done: string, changed: string) {
    setError(null);
    setInfo(null);
    const result = await mutate(action, [changed]);
    if (!result.ok) setError(result.error);
    else setInfo(done);
  }

  async function setRequirement(required: boolean) {
    setError(null);
    setInfo(null);
    // The box follows the click at once (and stays still until the answer); a refusal puts it back.
    setRequireTwoFactor(required);
    setSavingRequirement(true);
    const result = await mutate(
      api("PATCH", "/api/account/organization", { requireTwoFactor: required }, OrganizationSettingsSchema),
      [MEMBERS_PATH],
    );
    setSavingRequirement(false);
    if (!result.ok) {
      setRequireTwoFactor(!required);
      return setError(result.hint ? `${result.error} ${result.hint}` : result.error);
    }
    setRequireTwoFactor(result.data.requireTwoFactor);
    setInfo(
      result.data.requireTwoFactor
        ? "Two-factor sign-in is now required: members without it are sent to turn it on."
        : "Two-factor sign-in is no longer required.",
    );
  }

  async function invite(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "");
    await act(
      api("POST", INVITATIONS_PATH, { email, role: String(data.get("role") ?? "member") }),
      `Invitation sent to ${email}.`,
      INVITATIONS_PATH,
    );
    form.reset();
  }

  return (
    <div className="space-y-6">
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
      <Panel id="members" title={`Members (${members.length})`}>
        <ListHeader columns={MEMBER_COLUMNS} labels={["Member", "Role", ""]} />
        <ul aria-label="Members">
          {members.map((m) => (
            <li
              key={m.id}
              className={`${rowClass} grid-cols-[minmax(0,1fr)_auto] ${MEMBER_COLUMNS}`}
              data-testid={`member-${m.user.email}`}
            >
              <Cell label="Member" quiet>
                <div className="font-medium wrap-anywhere">{m.user.name || m.user.email}</div>
                <div className="text-slate-600 wrap-anywhere dark:text-slate-400">{m.user.email}</div>
                {m.twoFactorEnabled !== undefined && (
                  <div
                    className={`text-xs ${m.twoFactorEnabled ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300"}`}
                  >
                    {m.twoFactorEnabled ? "Two-factor sign-in on" : "No two-factor sign-in"}
                  </div>
                )}
              </Cell>
              <Cell label="Role" quiet>
                {manageable(m.role) && m.user.id !== userId ? (
                  <select
                    aria-label={`Role of ${m.user.email}`}
                    value={m.role}
                    disabled={!hydrated}
                    onChange={(event) =>
                      void act(
                        api("PATCH", `${MEMBERS_PATH}/${m.id}`, { role: event.target.value }),
                        `${m.user.email} is now ${event.target.value}.`,
                        MEMBERS_PATH,
                      )
                    }
                    className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
                  >
                    {assignable.concat(assignable.includes(m.role) ? [] : [m.role]).map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span>{m.role}</span>
                )}
              </Cell>
              <div className="col-span-2 flex flex-wrap gap-2 lg:col-span-1 lg:justify-end">
                {m.user.id === userId ? (
                  soleOwner ? (
                    // The API refuses the last owner's leaving; say so instead of offering a button that fails.
                    <p className="text-xs text-slate-600 lg:text-right dark:text-slate-400">
                      You are the only owner, so you cannot leave the team: make another member owner first.
                    </p>
                  ) : (
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      disabled={!hydrated}
                      onClick={() =>
                        void act(
                          api("POST", "/api/account/organization/leave", {}),
                          "You left the team.",
                          MEMBERS_PATH,
                        ).then(() => loadPage("/app"))
                      }
                    >
                      Leave team
                    </button>
                  )
                ) : (
                  <>
                    {role === "owner" && (
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        disabled={!hydrated}
                        onClick={() =>
                          void act(
                            api("POST", "/api/account/organization/transfer", { memberId: m.id }),
                            `${m.user.email} is now the owner.`,
                            MEMBERS_PATH,
                          ).then(() => window.location.reload())
                        }
                      >
                        Make owner
                      </button>
                    )}
                    {manageable(m.role) && (
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        disabled={!hydrated}
                        onClick={() =>
                          void act(
                            api("DELETE", `${MEMBERS_PATH}/${m.id}`),
                            `${m.user.email} was removed.`,
                            MEMBERS_PATH,
                          )
                        }
                      >
                        Remove
                      </button>
                    )}
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Panel>

      <Panel id="two-factor" title="Two-factor sign-in">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {requireTwoFactor
            ? "Required: a member without two-factor sign-in can open only Settings until they turn it on."
            : "Not required: each member decides for themselves."}
        </p>
        {role === "owner" ? (
          <label className="mt-3 flex items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4"
              checked={requireTwoFactor}
              disabled={!hydrated || savingRequirement}
              onChange={(event) => void setRequirement(event.target.checked)}
            />
            <span>
              Require two-factor sign-in of every member
              {!security.ownTwoFactor && (
                <span className="block text-slate-600 dark:text-slate-400">
                  Turn on your own first, in Settings → Security.
                </span>
              )}
            </span>
          </label>
        ) : (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Only an owner can change this.</p>
        )}
      </Panel>

      <Panel id="invitations" title="Pending invitations">
        {invitations.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No pending invitations.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {invitations.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 wrap-anywhere">
                  {inv.email} · {inv.role} · expires <LocalTime iso={inv.expiresAt} />
                </span>
                {manageable(inv.role) && (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    disabled={!hydrated}
                    onClick={() =>
                      void act(
                        api("DELETE", `${INVITATIONS_PATH}/${inv.id}`),
                        "Invitation cancelled.",
                        INVITATIONS_PATH,
                      )
                    }
                  >
                    Cancel
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {canManage && (
          <form
            method="post"
            onSubmit={invite}
            className="mt-4 flex flex-wrap items-end gap-3"
            aria-label="Invite a colleague"
          >
            <div className="min-w-0 flex-1 basis-64">
              <Field label="Email address">
                <input name="email" type="email" required className={inputClass} />
              </Field>
            </div>
            <Field label="Role">
              <select name="role" defaultValue="member" className={inputClass}>
                {assignable
                  .filter((r) => r !== "owner")
                  .map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
              </select>
            </Field>
            <button type="submit" className={buttonClass} disabled={!hydrated}>
              Send invitation
            </button>
          </form>
        )}
      </Panel>
    </div>
  );
}
