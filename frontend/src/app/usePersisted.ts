import { useCallback, useState, type SetStateAction } from "react";

/** useState kept in localStorage (UI preferences only, never secrets). */
export function usePersisted<T>(key: string, initial: T): [T, (v: SetStateAction<T>) => void] {
  const [v, setV] = useState<T>(() => {
    try {
      const s = localStorage.getItem(key);
      return s === null ? initial : (JSON.parse(s) as T);
    } catch {
      return initial;
    }
  });
  const set = useCallback(
    (next: SetStateAction<T>) => {
      setV((prev) => {
        const val = typeof next === "function" ? (next as (p: T) => T)(prev) : next;
        // Nothing changed: no write (a synchronous localStorage write per
        // streamed frame stalled the window during a flood).
        if (Object.is(val, prev)) return prev;
        try {
          localStorage.setItem(key, JSON.stringify(val));
        } catch {
          // not persisted
        }
        return val;
      });
    },
    [key],
  );
  return [v, set];
}
