// A quiet line while the window's core restarts: the window process keeps
// its page and waits for the core to come back (docs/ARCHITECTURE.md
// §Processes). The Go side emits `core:connection` (true/false).
import { useEffect, useState } from "react";
import { onWailsEvent } from "../transport/wailsRuntime";

export const CONNECTION_EVENT = "core:connection";

export function Reconnecting({ win }: { win?: unknown }) {
  const [down, setDown] = useState(false);
  useEffect(() => onWailsEvent(CONNECTION_EVENT, (v) => setDown(v === false), win), [win]);
  if (!down) return null;
  return (
    <div className="wait-line center" role="status">
      Reconnecting to Hermes Desk…
    </div>
  );
}
