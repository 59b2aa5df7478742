"use client";

import { useState } from "react";
import { api } from "./api";
import { Notice, secondaryButtonClass } from "./ui";
import { useHydrated } from "./useHydrated";

/** The /mute page's undo: one click turns the emails back on (link scanners sometimes open mute links). */
export function MuteUndo({ token, kind }: { token: string; kind: "mute" | "off" }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"muted" | "busy" | "undone" | "error">("muted");
  const [error, setError] = useState("");
  const undo = async () => {
    setState("busy");
    const result = await api("POST", `/api/mute?token=${encodeURIComponent(token)}&undo=1`);
    if (result.ok) setState("undone");
    else {
      setError(result.error);
      setState("error");
    }
  };
  if (state === "undone") return <Notice kind="info">{kind === "mute" ? "Alert emails about this page are on again." : "Daily digests are on again."}</Notice>;
  return (
    <div className="space-y-3">
      {state === "error" && <Notice kind="error">{error}</Notice>}
      <button type="button" className={secondaryButtonClass} disabled={!hydrated || state === "busy"} onClick={undo}>
        Undo
      </button>
    </div>
  );
}
