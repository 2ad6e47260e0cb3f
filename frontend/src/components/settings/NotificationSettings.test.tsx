import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { NOTIFY_KEYS, NotificationSettings, switchValue } from "./NotificationSettings";

const input = (e: HTMLElement) => e as HTMLInputElement;

function fakeApi(settings: Record<string, unknown>, failPut = false) {
  const puts: Record<string, unknown>[] = [];
  return {
    puts,
    api: {
      getSettings: async () => ({ ...settings }),
      putSettings: async (patch: Record<string, unknown>) => {
        if (failPut) throw new Error("disk full");
        puts.push(patch);
        Object.assign(settings, patch);
        return { ...settings };
      },
    },
  };
}

describe("notification settings", () => {
  it.each([
    [{}, NOTIFY_KEYS.needsYou, true, true],
    [{ [NOTIFY_KEYS.finished]: false }, NOTIFY_KEYS.finished, true, false],
    [{ [NOTIFY_KEYS.dnd]: "yes" }, NOTIFY_KEYS.dnd, false, false],
  ])("reads %j %s (default %s) as %s", (s, key, fallback, want) => {
    expect(switchValue(s, key, fallback)).toBe(want);
  });

  it("shows the defaults, saves a switch, and Do not disturb holds the others", async () => {
    const f = fakeApi({});
    render(<NotificationSettings api={f.api} />);
    const finished = input(await screen.findByRole("switch", { name: "When a run finishes" }));
    await waitFor(() => expect(finished.disabled).toBe(false));
    expect(finished.checked).toBe(true);
    await userEvent.click(finished);
    expect(f.puts).toEqual([{ [NOTIFY_KEYS.finished]: false }]);
    await waitFor(() => expect(finished.checked).toBe(false));

    const dnd = input(screen.getByRole("switch", { name: "Do not disturb" }));
    expect(dnd.checked).toBe(false);
    await userEvent.click(dnd);
    await waitFor(() => expect(input(screen.getByRole("switch", { name: "When a run needs you" })).disabled).toBe(true));
    expect(f.puts[1]).toEqual({ [NOTIFY_KEYS.dnd]: true });
  });

  it("has a switch for runs that wait for quota, on by default", async () => {
    const f = fakeApi({});
    render(<NotificationSettings api={f.api} />);
    const quota = input(await screen.findByRole("switch", { name: "When a run waits for quota" }));
    await waitFor(() => expect(quota.disabled).toBe(false));
    expect(quota.checked).toBe(true);
    await userEvent.click(quota);
    expect(f.puts).toEqual([{ [NOTIFY_KEYS.quota]: false }]);
  });

  it("says so when a switch cannot be saved", async () => {
    const f = fakeApi({}, true);
    render(<NotificationSettings api={f.api} />);
    const failed = input(await screen.findByRole("switch", { name: "When a run fails" }));
    await waitFor(() => expect(failed.disabled).toBe(false));
    await userEvent.click(failed);
    expect((await screen.findByRole("alert")).textContent).toContain("Could not save the notification setting");
  });
});
