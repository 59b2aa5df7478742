"use client";

import { useCallback, useEffect, useState } from "react";
import { Panel } from "@/components/analyzer/Panel";
import type { Invitation, Member, Role } from "@/lib/schemas/team";
import { api, loadPage } from "./api";
import { Cell, ListHeader, rowClass } from "./ListGrid";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "./ui";

const MEMBER_COLUMNS = "lg:grid-cols-[minmax(0,1fr)_8rem_14rem]"; // fixed widths: the header row must line up
const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Members, roles and invitations of the active team; edit controls only for roles that may use them. */
export function TeamPanel({ role, userId }: { role: Role; userId: string }) {
  const [members, setMembers] = useState<Member[]>([]);
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const canManage = RANK[role] >= RANK.admin;
  const manageable = (target: Role) => canManage && (role === "owner" || RANK[target] < RANK.admin);
  const soleOwner = role === "owner" && members.filter((m) => m.role === "owner").length === 1;
  const assignable: Role[] = role === "owner" ? ["viewer", "member", "admin", "owner"] : ["viewer", "member"];

  const load = useCallback(async () => {
    const [m, i] = await Promise.all([
      api<{ items: Member[] }>("GET", "/api/account/members"),
      api<{ items: Invitation[] }>("GET", "/api/account/invitations"),
    ]);
    if (m.ok) setMembers(m.data.items);
    else setError(m.error);
    if (i.ok) setInvitations(i.data.items);
  }, []);

  useEffect(() => {
    // Loading the lists from the API is the effect's purpose (the page renders without them first).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function act(promise: Promise<{ ok: boolean; error?: string }>, done: string) {
    setError(null);
    setInfo(null);
    const result = await promise;
    if (!result.ok) setError(result.error ?? "Failed.");
    else setInfo(done);
    await load();
  }

  async function invite(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "");
    await act(
      api("POST", "/api/account/invitations", { email, role: String(data.get("role") ?? "member") }),
      `Invitation sent to ${email}.`,
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
              </Cell>
              <Cell label="Role" quiet>
                {manageable(m.role) && m.user.id !== userId ? (
                  <select
                    aria-label={`Role of ${m.user.email}`}
                    value={m.role}
                    onChange={(event) =>
                      void act(
                        api("PATCH", `/api/account/members/${m.id}`, { role: event.target.value }),
                        `${m.user.email} is now ${event.target.value}.`,
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
                      onClick={() =>
                        void act(api("POST", "/api/account/organization/leave", {}), "You left the team.").then(() =>
                          loadPage("/app"),
                        )
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
                        onClick={() =>
                          void act(
                            api("POST", "/api/account/organization/transfer", { memberId: m.id }),
                            `${m.user.email} is now the owner.`,
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
                        onClick={() =>
                          void act(api("DELETE", `/api/account/members/${m.id}`), `${m.user.email} was removed.`)
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

      <Panel id="invitations" title="Pending invitations">
        {invitations.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No pending invitations.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {invitations.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 wrap-anywhere">
                  {inv.email} · {inv.role} · expires {new Date(inv.expiresAt).toLocaleString()}
                </span>
                {manageable(inv.role) && (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() =>
                      void act(api("DELETE", `/api/account/invitations/${inv.id}`), "Invitation cancelled.")
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
            <button type="submit" className={buttonClass}>
              Send invitation
            </button>
          </form>
        )}
      </Panel>
    </div>
  );
}
