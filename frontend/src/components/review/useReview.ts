// One workspace's review (docs/ARCHITECTURE.md §Review): read when the
// view opens, then again on the watch bus's review.changed for this
// workspace, a checkpoint change (an undo of a revert), a run's end (its
// files changed) or a reconnect's snapshot. Never polled.
import { useCallback, useEffect, useState } from "react";
import type { Review } from "../../contract/wire.gen";
import type { WatchBus } from "../../store/bus";
import type { ApiClient } from "../../transport/api";
import { isTerminalStatus } from "../../transport/types";
import { causeText } from "../common/bannerError";

export function useReview(api: ApiClient, bus: WatchBus | undefined, workspaceId: string) {
  const [review, setReview] = useState<Review>();
  const [err, setErr] = useState<string>();
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(
    () =>
      bus?.subscribe((m) => {
        if (
          (m.type === "review.changed" && m.review?.workspace_id === workspaceId) ||
          m.type === "checkpoint.changed" ||
          m.type === "snapshot" ||
          (m.type === "run.changed" && !!m.run && isTerminalStatus(m.run.status))
        )
          reload();
      }),
    [bus, workspaceId, reload],
  );
  useEffect(() => {
    let live = true;
    api.review(workspaceId).then(
      (r) => {
        if (!live) return;
        setReview(r);
        setErr(undefined);
      },
      (e) => live && setErr(`Could not read the review: ${causeText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId, version]);
  return { review, err, reload, setReview };
}

/** True while the window is at least min px wide; follows resizes (an event, not a poll). */
export function useWide(min: number): boolean {
  const [wide, setWide] = useState(() => window.innerWidth >= min);
  useEffect(() => {
    const on = () => setWide(window.innerWidth >= min);
    window.addEventListener("resize", on);
    return () => window.removeEventListener("resize", on);
  }, [min]);
  return wide;
}
