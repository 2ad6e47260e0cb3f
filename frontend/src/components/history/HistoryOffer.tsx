// The first-start offer (docs/ARCHITECTURE.md §History): the
// conversations the agents kept before Hermes Desk, offered once in words
// ("142 Claude Code sessions, 38 Codex sessions — import them?"). A banner,
// never a dialog, so the window stays usable; any answer is kept as the
// setting history.offer_answered and the offer never comes back.
import { useEffect, useState } from "react";
import type { ApiClient } from "../../transport/api";
import type { HistoryOffer as Offer } from "../../transport/types";
import "./history.css";

export type OfferApi = Pick<ApiClient, "historyOffer" | "importHistory" | "getSettings" | "putSettings">;

/** The setting that remembers the answer: "imported", "not_now" or "settings". */
export const OFFER_ANSWERED = "history.offer_answered";
export type OfferAnswer = "imported" | "not_now" | "settings";

/** "142 Claude Code sessions, 38 Codex sessions": the sources with something new, largest first. */
export function offerText(offers: Offer[]): string {
  return offers
    .filter((o) => o.new > 0)
    .sort((a, b) => b.new - a.new)
    .map((o) => `${o.new} ${o.name || o.source} ${o.new === 1 ? "session" : "sessions"}`)
    .join(", ");
}

/** Whether the offer was answered already (any answer counts; an empty one does not). */
export function offerAnswered(settings: Record<string, unknown>): boolean {
  const v = settings[OFFER_ANSWERED];
  return typeof v === "string" ? v !== "" : !!v;
}

type State =
  | { at: "idle" }
  | { at: "offer"; offers: Offer[]; error?: string }
  | { at: "importing"; offers: Offer[] }
  | { at: "done"; note: string };

export function HistoryOffer({ api, enabled, onSettings }: { api: OfferApi; enabled: boolean; onSettings(): void }) {
  const [s, setS] = useState<State>({ at: "idle" });
  const [mirror, setMirror] = useState(false);

  // Asked each time the backend connects (a reconnect reads the answer
  // again: one request); what an earlier ask left behind is dropped.
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void (async () => {
      try {
        if (offerAnswered(await api.getSettings())) return;
        const offers = (await api.historyOffer()).filter((o) => o.new > 0);
        // A reconnect mid-import or after an answer changes nothing shown.
        if (live && offers.length) setS((cur) => (cur.at === "idle" ? { at: "offer", offers } : cur));
      } catch {
        // No offer this time (a backend without history, a failed read): the
        // next start asks again; Settings → History has it all meanwhile.
      }
    })();
    return () => {
      live = false;
    };
  }, [api, enabled]);

  if (s.at === "idle") return null;
  if (s.at === "done") {
    return (
      <div className="banner history-offer" role="status">
        {s.note}
        <button type="button" className="btn btn-ghost" onClick={() => setS({ at: "idle" })}>Dismiss</button>
      </div>
    );
  }

  const answer = async (a: OfferAnswer) => {
    await api.putSettings({ [OFFER_ANSWERED]: a });
  };
  const offers = s.offers;
  const importAll = async () => {
    setS({ at: "importing", offers });
    let imported = 0;
    let failed = 0;
    try {
      for (const o of offers) {
        const r = await api.importHistory(o.source, mirror || undefined);
        imported += r.imported + r.updated;
        failed += r.failed?.length ?? 0;
      }
      await answer("imported");
    } catch (e) {
      setS({ at: "offer", offers, error: e instanceof Error ? e.message : "The import failed. Try again." });
      return;
    }
    const some = `${imported} ${imported === 1 ? "session" : "sessions"} imported into the projects of their folders`;
    const bad = failed ? `; ${failed} could not be read (Settings → History says why)` : "";
    const watching = mirror ? ". The mirror brings new turns in while the app runs." : ".";
    setS({ at: "done", note: some + bad + watching });
  };
  const decline = async (a: Exclude<OfferAnswer, "imported">) => {
    try {
      await answer(a);
    } catch (e) {
      setS({ at: "offer", offers, error: e instanceof Error ? e.message : "Could not save the answer. Try again." });
      return;
    }
    setS({ at: "idle" });
    if (a === "settings") onSettings();
  };
  const busy = s.at === "importing";
  return (
    <section className="banner history-offer" aria-label="Conversations from before" aria-busy={busy}>
      <div className="history-offer-text">
        <p>
          <strong>{offerText(offers)}</strong> from before Hermes Desk — import them?
        </p>
        <p className="quiet">They land in the projects of their folders, searchable, and can be continued in their agent. The agents' files are only read.</p>
        <label className="history-offer-mirror">
          <input type="checkbox" checked={mirror} disabled={busy} onChange={(e) => setMirror(e.target.checked)} />
          Keep mirroring new turns while the app runs
        </label>
        {s.at === "offer" && s.error && <p className="control-note" role="alert">{s.error}</p>}
      </div>
      <div className="history-offer-actions">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void importAll()}>
          {busy ? "Importing…" : "Import"}
        </button>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void decline("not_now")}>Not now</button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void decline("settings")}>Choose in Settings</button>
      </div>
    </section>
  );
}
