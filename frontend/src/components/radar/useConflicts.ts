// A project's conflict radar answer from the window's one watch stream
// (store/bus.ts keeps it: the snapshot's, then conflicts.changed). Never
// polled (docs/ARCHITECTURE.md §Conflict radar).
import { useSyncExternalStore } from "react";
import type { WatchBus } from "../../store/bus";
import type { Conflicts } from "../../transport/types";

const none = () => () => {};

export function useConflicts(bus: WatchBus | undefined, projectId: string): Conflicts | undefined {
  return useSyncExternalStore(
    bus ? (cb) => bus.subscribe((m) => (m.type === "snapshot" || m.type === "conflicts.changed") && cb()) : none,
    () => bus?.conflicts(projectId),
  );
}
