import { useCallback } from "react";
import type { Session } from "../transport/types";
import { usePersisted } from "./usePersisted";

/** Which sessions changed since the person last looked (the sidebar's unread dot). */
export function useSeen(sessions: Record<string, Session[]>) {
  const [seen, setSeen] = usePersisted<Record<string, string>>("hermesdesk.seen", {});
  const isUnread = useCallback((s: Session) => !!s.updated_at && !!seen[s.id] && s.updated_at > seen[s.id]!, [seen]);
  const markSeen = useCallback(
    (id: string) => {
      const s = Object.values(sessions).flat().find((x) => x.id === id);
      const at = s?.updated_at ?? new Date().toISOString();
      setSeen((m) => (m[id] === at ? m : { ...m, [id]: at }));
    },
    [sessions, setSeen],
  );
  const forget = useCallback(
    (id: string) =>
      setSeen((m) => {
        if (!(id in m)) return m;
        const { [id]: _gone, ...rest } = m;
        return rest;
      }),
    [setSeen],
  );
  return { isUnread, markSeen, forget };
}
