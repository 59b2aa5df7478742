"use client";

import { useId, useState } from "react";
import { api } from "@/components/account/api";
import { LocalTime } from "@/components/account/LocalTime";
import { buttonClass, Field, inputClass, Notice, secondaryButtonClass } from "@/components/account/ui";
import {
  MAX_DAY_OF_MONTH,
  MAX_RECIPIENTS,
  scheduleWords,
  SentTestSchema,
  WEEKDAY_NAMES,
  type RecipientStatus,
  type ScheduleCadence,
  type ShareSchedule,
} from "@/lib/schemas/share-schedules";
import { ShareSchema, type Share } from "@/lib/schemas/shares";

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const DAYS = Array.from({ length: MAX_DAY_OF_MONTH }, (_, index) => index + 1);

const STATUS: Record<RecipientStatus, { label: string; tone: string }> = {
  pending: {
    label: "Asked to confirm",
    tone: "bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600",
  },
  confirmed: {
    label: "Confirmed",
    tone: "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950/50 dark:text-emerald-200 dark:ring-emerald-800",
  },
  unsubscribed: {
    label: "Unsubscribed",
    tone: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950/50 dark:text-amber-200 dark:ring-amber-800",
  },
};

/** "Weekly, every Monday at 09:00 UTC · 2 of 3 confirmed", or that there is none. */
export function ScheduleSummary({ schedule }: { schedule: ShareSchedule | null }) {
  if (!schedule) return <span className="text-slate-600 dark:text-slate-400">Not emailed</span>;
  const confirmed = schedule.recipients.filter((recipient) => recipient.status === "confirmed").length;
  return (
    <span>
      {schedule.cadence === "weekly" ? "Weekly" : "Monthly"}, {scheduleWords(schedule)}
      <span className="block text-slate-600 dark:text-slate-400">
        {confirmed} of {schedule.recipients.length} confirmed
      </span>
    </span>
  );
}

/**
 * Admins: a share's scheduled report — weekly or monthly at an hour (UTC), up to ten recipients, each of
 * whom is asked to confirm before anything is sent — with its recipients' status, removal and a test sent
 * to the admin's own address. Everyone else sees the schedule and its recipients.
 */
export function ScheduleEditor({
  share,
  canManage,
  onChanged,
}: {
  share: Share;
  canManage: boolean;
  onChanged: (share: Share, message: string) => void;
}) {
  const id = useId();
  const schedule = share.schedule;
  const [cadence, setCadence] = useState<ScheduleCadence>(schedule?.cadence ?? "weekly");
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "remove" | "test" | null>(null);

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const recipients = String(data.get("recipients") ?? "")
      .split(/[\s,;]+/)
      .map((address) => address.trim())
      .filter(Boolean);
    const day = Number(data.get("day"));
    setBusy("save");
    setError(null);
    setInfo(null);
    const result = await api(
      "PUT",
      `/api/account/shares/${share.id}/schedule`,
      {
        cadence,
        ...(cadence === "weekly" ? { weekday: day } : { dayOfMonth: day }),
        hourUtc: Number(data.get("hour")),
        recipients,
      },
      ShareSchema,
    );
    setBusy(null);
    if (!result.ok) return setError(result.error);
    const asked = result.data.schedule?.recipients.filter((recipient) => recipient.status === "pending").length ?? 0;
    onChanged(
      result.data,
      asked > 0
        ? `Schedule saved. ${asked} ${asked === 1 ? "address is" : "addresses are"} asked to confirm; reports go only to confirmed addresses.`
        : "Schedule saved.",
    );
  }

  async function remove() {
    if (!window.confirm(`Stop emailing “${share.title}”? Its recipients are removed; the report link keeps working.`))
      return;
    setBusy("remove");
    setError(null);
    setInfo(null);
    const result = await api("DELETE", `/api/account/shares/${share.id}/schedule`);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    onChanged({ ...share, schedule: null }, `“${share.title}” is no longer emailed.`);
  }

  async function sendTest() {
    setBusy("test");
    setError(null);
    setInfo(null);
    const result = await api("POST", `/api/account/shares/${share.id}/send-test`, undefined, SentTestSchema);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    setInfo(`A test report is on its way to ${result.data.to}.`);
  }

  const dayChoices =
    cadence === "weekly"
      ? WEEKDAY_NAMES.map((name, index) => ({ value: index, label: name }))
      : DAYS.map((day) => ({ value: day, label: `Day ${day}` }));
  const dayDefault = cadence === "weekly" ? (schedule?.weekday ?? 1) : (schedule?.dayOfMonth ?? 1);

  return (
    <div className="space-y-3" data-testid={`schedule-${share.title}`}>
      {schedule && (
        <div className="space-y-2 text-sm">
          <p>
            <span className="font-medium">Next report:</span> <LocalTime iso={schedule.nextSendAt} />
            {schedule.lastSentAt && (
              <>
                {" "}
                · <span className="font-medium">last sent:</span> <LocalTime iso={schedule.lastSentAt} />
              </>
            )}
          </p>
          <ul aria-label={`Recipients of “${share.title}”`} className="flex flex-wrap gap-2">
            {schedule.recipients.map((recipient) => (
              <li
                key={recipient.email}
                className="flex flex-wrap items-center gap-2 rounded-md px-2 py-1 ring-1 ring-slate-200 dark:ring-slate-700"
              >
                <span className="break-all">{recipient.email}</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${STATUS[recipient.status].tone}`}
                  data-status={recipient.status}
                >
                  {STATUS[recipient.status].label}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {canManage && (
        <form
          className="grid gap-3 sm:grid-cols-3"
          aria-label={`Email schedule of “${share.title}”`}
          onSubmit={(event) => void save(event)}
        >
          <Field label="Every">
            <select
              value={cadence}
              onChange={(event) => setCadence(event.target.value as ScheduleCadence)}
              className={inputClass}
            >
              <option value="weekly">Week</option>
              <option value="monthly">Month</option>
            </select>
          </Field>
          <Field label={cadence === "weekly" ? "On" : "On day"}>
            <select key={cadence} name="day" defaultValue={dayDefault} className={inputClass}>
              {dayChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="At (UTC)">
            <select name="hour" defaultValue={schedule?.hourUtc ?? 9} className={inputClass}>
              {HOURS.map((hour) => (
                <option key={hour} value={hour}>
                  {String(hour).padStart(2, "0")}:00
                </option>
              ))}
            </select>
          </Field>
          <div className="sm:col-span-3">
            <label
              htmlFor={`${id}-recipients`}
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Recipients (up to {MAX_RECIPIENTS} addresses, one a line)
            </label>
            <textarea
              // After a save the box shows the addresses as stored (trimmed, lowercased, each once).
              key={schedule?.recipients.map((recipient) => recipient.email).join("\n") ?? ""}
              id={`${id}-recipients`}
              name="recipients"
              rows={3}
              required
              aria-describedby={`${id}-consent`}
              defaultValue={schedule?.recipients.map((recipient) => recipient.email).join("\n") ?? ""}
              className={`${inputClass} font-mono`}
              placeholder="client@example.com"
            />
            <p id={`${id}-consent`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              Each new address gets an email asking it to confirm; reports go only to confirmed addresses, each with a
              one-click unsubscribe link. An address that unsubscribed stays so: remove it and add it again to ask anew.
            </p>
          </div>
          <div className="flex flex-wrap gap-2 sm:col-span-3">
            <button type="submit" className={buttonClass} disabled={busy !== null}>
              {busy === "save" ? "Saving…" : schedule ? "Save schedule" : "Email this report"}
            </button>
            {schedule && (
              <>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy !== null}
                  onClick={() => void sendTest()}
                >
                  {busy === "test" ? "Sending…" : "Send a test to me"}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy !== null}
                  onClick={() => void remove()}
                >
                  {busy === "remove" ? "Removing…" : "Stop emailing"}
                </button>
              </>
            )}
          </div>
        </form>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {info && <Notice kind="info">{info}</Notice>}
    </div>
  );
}
