// A quiet line while the process behind the page is replaced: the desktop
// window's core restarting (the Go side emits `core:connection` true/false),
// or, in a browser, serve taking over from the desktop app (`lost`: the
// watch bus dropped and is reconnecting). The page keeps its view meanwhile
// (docs/ARCHITECTURE.md §Processes).
import { useEffect, useState } from "react";
import { onWailsEvent } from "../../transport/wailsRuntime";

export const CONNECTION_EVENT = "core:connection";

export function Reconnecting({ win, lost = false }: { win?: unknown; lost?: boolean }) {
  const [down, setDown] = useState(false);
  useEffect(() => onWailsEvent(CONNECTION_EVENT, (v) => setDown(v === false), win), [win]);
  if (!down && !lost) return null;
  return (
    <div className="wait-line center" role="status">
      Reconnecting to Hermes Desk…
    </div>
  );
}
