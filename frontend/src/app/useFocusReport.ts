// Tells the backend what the window shows and whether it has the focus,
// so a notification never interrupts the session the person is reading
// (PUT /api/client/focus; docs/ARCHITECTURE.md §Notifications).
import { useEffect } from "react";
import type { ApiClient } from "../transport/api";

export function useFocusReport(api: Pick<ApiClient, "setFocus">, sessionId: string, connected: boolean) {
  useEffect(() => {
    if (!connected) return;
    const report = () => void api.setFocus(sessionId, document.hasFocus() && document.visibilityState === "visible").catch(() => {});
    report();
    window.addEventListener("focus", report);
    window.addEventListener("blur", report);
    document.addEventListener("visibilitychange", report);
    return () => {
      window.removeEventListener("focus", report);
      window.removeEventListener("blur", report);
      document.removeEventListener("visibilitychange", report);
    };
  }, [api, sessionId, connected]);
}
