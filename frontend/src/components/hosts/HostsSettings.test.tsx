import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../transport/api";
import type { WatchMessage } from "../../transport/types";
import { hostLine, HostsSettings, type Host } from "./HostsSettings";

const box: Host = {
  id: "host_1", target: "me@box", status: "ready", os: "linux", arch: "amd64", version: "", note: "", added_at: "2026-11-27T10:00:00Z",
};

function fakeApi(refuse?: string) {
  const hosts: Host[] = [];
  return {
    hosts,
    api: {
      hosts: async () => [...hosts],
      addHost: async (target: string) => {
        if (refuse) throw new ApiError(400, "bad_request", refuse);
        const h = { ...box, target, id: `host_${hosts.length + 1}` };
        hosts.push(h);
        return h;
      },
      removeHost: async (id: string) => {
        hosts.splice(hosts.findIndex((h) => h.id === id), 1);
      },
    },
  };
}

describe("hosts settings", () => {
  it("says a host's status, platform and version", () => {
    expect(hostLine(box)).toBe("ready · linux/amd64");
    expect(hostLine({ ...box, status: "running", version: "1.2.0" })).toBe("running · linux/amd64 · Hermes Desk 1.2.0");
  });

  it("adds a host, lists it and removes it", async () => {
    const f = fakeApi();
    render(<HostsSettings api={f.api} />);
    await userEvent.type(screen.getByLabelText("Add a host"), "me@box");
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByText("me@box")).toBeTruthy();
    expect(screen.getByText("ready · linux/amd64")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Remove me@box" }));
    await waitFor(() => expect(screen.queryByText("me@box")).toBeNull());
    expect(f.hosts).toEqual([]);
  });

  it("shows the backend's sentence when the check refuses the host", async () => {
    const sentence = "The host key of box has CHANGED since you last connected: this can be a reinstall or someone in the middle.";
    const f = fakeApi(sentence);
    render(<HostsSettings api={f.api} />);
    await userEvent.type(screen.getByLabelText("Add a host"), "box");
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    expect((await screen.findByRole("alert")).textContent).toContain("CHANGED since you last connected");
    expect(f.hosts).toEqual([]);
    expect((screen.getByLabelText("Add a host") as HTMLInputElement).value).toBe("box");
  });

  it("reads the list again on host.changed", async () => {
    const f = fakeApi();
    const listeners: ((m: WatchMessage) => void)[] = [];
    const bus = { subscribe: (cb: (m: WatchMessage) => void) => (listeners.push(cb), () => {}) };
    render(<HostsSettings api={f.api} bus={bus} />);
    await waitFor(() => expect(listeners.length).toBe(1));
    f.hosts.push({ ...box, target: "me@cli-added" });
    act(() => listeners.forEach((cb) => cb({ seq: 3, type: "host.changed", host_state: { host: "host_2", reachable: false, record: { ...box, id: "host_2", target: "me@cli-added" } } })));
    expect(await screen.findByText("me@cli-added")).toBeTruthy();
  });
});
