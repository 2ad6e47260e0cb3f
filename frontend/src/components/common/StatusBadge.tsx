import { Ban, CheckCircle2, CircleAlert, CircleDot, CirclePause, Clock, Hand, Loader2, Unplug, XCircle } from "lucide-react";
import type { ReactElement } from "react";

export interface StatusLook {
  label: string;
  tone: "running" | "needs" | "ok" | "fail" | "muted";
  icon: ReactElement;
}

/** One meaning per colour everywhere (UI.md): blue running, amber needs you, … */
export function statusLook(status: string, size = 14): StatusLook {
  switch (status) {
    case "running":
      return { label: "Running", tone: "running", icon: <Loader2 size={size} className="spin" aria-hidden /> };
    case "queued":
      return { label: "Queued", tone: "running", icon: <Clock size={size} aria-hidden /> };
    case "cancelling":
      return { label: "Stopping", tone: "running", icon: <Loader2 size={size} className="spin" aria-hidden /> };
    case "awaiting_approval":
      return { label: "Needs approval", tone: "needs", icon: <Hand size={size} aria-hidden /> };
    case "awaiting_clarify":
      return { label: "Needs answer", tone: "needs", icon: <CircleAlert size={size} aria-hidden /> };
    case "paused":
      return { label: "Paused", tone: "muted", icon: <CirclePause size={size} aria-hidden /> };
    case "parked":
      return { label: "Waiting for quota", tone: "muted", icon: <Clock size={size} aria-hidden /> };
    case "completed":
      return { label: "Completed", tone: "ok", icon: <CheckCircle2 size={size} aria-hidden /> };
    case "failed":
      return { label: "Failed", tone: "fail", icon: <XCircle size={size} aria-hidden /> };
    case "cancelled":
      return { label: "Cancelled", tone: "muted", icon: <Ban size={size} aria-hidden /> };
    case "interrupted":
      return { label: "Interrupted", tone: "muted", icon: <Unplug size={size} aria-hidden /> };
    default:
      return { label: "Idle", tone: "muted", icon: <CircleDot size={size} aria-hidden /> };
  }
}

export function StatusBadge({ status }: { status: string }) {
  const l = statusLook(status);
  return (
    <span className={`badge tone-${l.tone}`} role="status" aria-label={`Run ${l.label.toLowerCase()}`}>
      {l.icon}
      {l.label}
    </span>
  );
}
