import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { describe, expect, it } from "vitest";
import type { HistoryImportResult, HistoryOffer as Offer } from "../../transport/types";
import { HistoryOffer, OFFER_ANSWERED, offerAnswered, offerText, type OfferApi } from "./HistoryOffer";

const claude: Offer = { source: "claude", name: "Claude Code", root: "/home/me/.claude", new: 142 };
const codex: Offer = { source: "codex", name: "Codex", root: "/home/me/.codex", new: 38 };

/** A backend keeping its settings and recording the imports asked for. */
function fakeApi(offers: Offer[], settings: Record<string, unknown> = {}, fail?: string) {
  const imports: [string, boolean | undefined][] = [];
  let offered = 0;
  let reads = 0;
  const api: OfferApi = {
    historyOffer: async () => (offered++, offers),
    importHistory: async (source, mirror) => {
      if (fail) throw new Error(fail);
      imports.push([source, mirror]);
      const n = offers.find((o) => o.source === source)?.new ?? 0;
      return { source, mirror: !!mirror, imported: n, updated: 0, already: 0, skipped: 0 } as HistoryImportResult;
    },
    getSettings: async () => (reads++, { ...settings }),
    putSettings: async (s) => Object.assign(settings, s),
  };
  return { api, imports, settings, offered: () => offered, reads: () => reads };
}

describe("offerText", () => {
  it.each([
    ["two sources, largest first", [codex, claude], "142 Claude Code sessions, 38 Codex sessions"],
    ["one conversation", [{ ...codex, new: 1 }], "1 Codex session"],
    ["a source with nothing new is left out", [claude, { ...codex, new: 0 }], "142 Claude Code sessions"],
    ["no name: the source id", [{ ...codex, name: "" }], "38 codex sessions"],
  ])("%s", (_what, offers, want) => expect(offerText(offers)).toBe(want));
});

describe("offerAnswered", () => {
  it.each([
    [{}, false],
    [{ [OFFER_ANSWERED]: "" }, false],
    [{ [OFFER_ANSWERED]: "not_now" }, true],
    [{ [OFFER_ANSWERED]: "imported" }, true],
    [{ [OFFER_ANSWERED]: true }, true],
  ])("%j → %s", (s, want) => expect(offerAnswered(s)).toBe(want));
});

describe("the first-start offer", () => {
  it("says what it found in words and imports all of it, the mirror on when asked", async () => {
    const b = fakeApi([claude, codex]);
    render(<HistoryOffer api={b.api} enabled onSettings={() => {}} />);
    const offer = await screen.findByRole("region", { name: "Conversations from before" });
    expect(offer.textContent).toContain("142 Claude Code sessions, 38 Codex sessions from before Hermes Desk — import them?");
    await userEvent.click(screen.getByRole("checkbox", { name: /Keep mirroring/ }));
    await userEvent.click(screen.getByRole("button", { name: "Import" }));
    await screen.findByText(/180 sessions imported into the projects of their folders\. The mirror brings/);
    expect(b.imports).toEqual([
      ["claude", true],
      ["codex", true],
    ]);
    expect(b.settings[OFFER_ANSWERED]).toBe("imported");
  });

  it("shows under StrictMode too (the dev build runs each effect twice)", async () => {
    const b = fakeApi([claude]);
    render(
      <StrictMode>
        <HistoryOffer api={b.api} enabled onSettings={() => {}} />
      </StrictMode>,
    );
    expect((await screen.findByRole("region")).textContent).toContain("142 Claude Code sessions");
  });

  it("imports without the mirror unless asked", async () => {
    const b = fakeApi([codex]);
    render(<HistoryOffer api={b.api} enabled onSettings={() => {}} />);
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    await screen.findByText(/38 sessions imported/);
    expect(b.imports).toEqual([["codex", undefined]]);
  });

  it.each([
    ["Not now", "not_now", false],
    ["Choose in Settings", "settings", true],
  ])("%s answers it: kept, the banner goes, nothing imported", async (button, answer, opens) => {
    const b = fakeApi([claude]);
    let settingsOpened = false;
    render(<HistoryOffer api={b.api} enabled onSettings={() => (settingsOpened = true)} />);
    await userEvent.click(await screen.findByRole("button", { name: button }));
    await waitFor(() => expect(screen.queryByRole("region")).toBeNull());
    expect(b.settings[OFFER_ANSWERED]).toBe(answer);
    expect(b.imports).toEqual([]);
    expect(settingsOpened).toBe(opens);
  });

  it("never comes back after an answer: the next start does not even count the sources", async () => {
    const b = fakeApi([claude], { [OFFER_ANSWERED]: "not_now" });
    const { container } = render(<HistoryOffer api={b.api} enabled onSettings={() => {}} />);
    // The settings are read; the offer would be asked for right after.
    await waitFor(() => expect(b.reads()).toBe(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(b.offered()).toBe(0);
    expect(container.textContent).toBe("");
  });

  it("shows nothing when nothing new was found, and asks nothing while disconnected", async () => {
    const none = fakeApi([]);
    const { container, rerender } = render(<HistoryOffer api={none.api} enabled={false} onSettings={() => {}} />);
    expect(none.offered()).toBe(0);
    rerender(<HistoryOffer api={none.api} enabled onSettings={() => {}} />);
    await waitFor(() => expect(none.offered()).toBe(1));
    expect(container.textContent).toBe("");
    expect(none.settings[OFFER_ANSWERED]).toBeUndefined();
  });

  it("a failed import says so and stays unanswered, so it can be tried again", async () => {
    const b = fakeApi([claude], {}, "The history could not be read.");
    render(<HistoryOffer api={b.api} enabled onSettings={() => {}} />);
    await userEvent.click(await screen.findByRole("button", { name: "Import" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The history could not be read.");
    expect(b.settings[OFFER_ANSWERED]).toBeUndefined();
    expect(screen.getByRole("button", { name: "Import" })).toBeTruthy();
  });
});
