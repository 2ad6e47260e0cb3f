import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiClient, type RawResponse } from "../../transport/api";
import type { AgentRegistry } from "../../transport/types";
import { AddAgent } from "./AddAgent";
import { BackendSettings } from "./AgentSettings";

const REGISTRY: AgentRegistry = {
  date: "2026-02-07",
  source: "https://github.com/agentclientprotocol/registry",
  commit: "3de1678",
  agents: [
    { id: "auggie", name: "Auggie CLI", version: "0.15.0", command: "npx", args: ["--yes", "@augmentcode/auggie@0.15.0", "--acp"], install_hint: "npm install -g @augmentcode/auggie", installed: false, source: "registry" },
    { id: "hermes", name: "Hermes Agent", command: "hermes", args: ["acp"], install_hint: 'pipx install "hermes-agent[acp]"', installed: true, path: "/usr/bin/hermes", source: "hermesdesk", taken: true },
  ],
};

function fakeApi(answer: (body: unknown) => RawResponse) {
  const posts: unknown[] = [];
  const api = new ApiClient(async (m, p, b): Promise<RawResponse> => {
    if (p === "/api/agents/registry" && m === "GET") return { status: 200, body: JSON.stringify(REGISTRY) };
    if (p === "/api/agents" && m === "POST") {
      const body = JSON.parse(b!);
      posts.push(body);
      return answer(body);
    }
    return { status: 404, body: '{"error":{"code":"not_found","message":"no"}}' };
  });
  return { api, posts };
}

describe("add agent", () => {
  it("lists the registry snapshot with its date, install hints and what is installed; choosing one fills the form", async () => {
    const f = fakeApi((b) => ({ status: 201, body: JSON.stringify(b) }));
    let added = 0;
    render(<AddAgent api={f.api} onAdded={() => void added++} />);
    await userEvent.click(screen.getByRole("button", { name: /Add agent/ }));
    expect(await screen.findByText("From the ACP registry (snapshot of 2026-02-07)")).toBeTruthy();
    expect(screen.getByText("npm install -g @augmentcode/auggie")).toBeTruthy();
    expect(screen.getByText("Installed")).toBeTruthy();
    expect(screen.getByText(/An agent with id hermes exists/)).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Use Auggie CLI" }));
    expect((screen.getByLabelText("Command") as HTMLInputElement).value).toBe("npx --yes @augmentcode/auggie@0.15.0 --acp");
    await userEvent.click(screen.getByRole("button", { name: "Add agent" }));
    await waitFor(() => expect(added).toBe(1));
    expect(f.posts).toEqual([{ id: "auggie", name: "Auggie CLI", kind: "acp", command: "npx", args: ["--yes", "@augmentcode/auggie@0.15.0", "--acp"] }]);
    expect(screen.getByRole("status").textContent).toContain("Added Auggie CLI");
  });

  it("shows the backend's refusal and marks the field it names", async () => {
    const f = fakeApi(() => ({ status: 400, body: '{"error":{"code":"bad_request","message":"id: \\"X Y\\" must be lower-case letters, digits, - and _"}}' }));
    render(<AddAgent api={f.api} onAdded={() => {}} />);
    await userEvent.click(screen.getByRole("button", { name: /Add agent/ }));
    await userEvent.type(screen.getByLabelText("Id"), "X Y");
    await userEvent.type(screen.getByLabelText("Name"), "X");
    await userEvent.type(screen.getByLabelText("Command"), "x-acp");
    await userEvent.click(screen.getByRole("button", { name: "Add agent" }));
    expect((await screen.findByRole("alert")).textContent).toBe('Could not add the agent: id: "X Y" must be lower-case letters, digits, - and _');
    expect(screen.getByLabelText("Id").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Command").getAttribute("aria-invalid")).toBeNull();

    // A line of the environment that is not KEY=VALUE is caught before sending.
    await userEvent.type(screen.getByLabelText("Environment"), "no equals sign");
    await userEvent.click(screen.getByRole("button", { name: "Add agent" }));
    await waitFor(() => expect(screen.getByLabelText("Environment").getAttribute("aria-invalid")).toBe("true"));
    expect(f.posts).toHaveLength(1);
  });
});

describe("an added agent in Settings", () => {
  it("can be removed; a built-in one cannot", async () => {
    const calls: string[] = [];
    let agents = [
      { name: "demo", display_name: "Demo agent (no AI)", installed: true, ok: true },
      { name: "mine", display_name: "My agent", installed: true, ok: true, added: true },
    ];
    const api = new ApiClient(async (m, p): Promise<RawResponse> => {
      calls.push(`${m} ${p}`);
      if (p === "/api/settings") return { status: 200, body: JSON.stringify({ "agents.mine": { kind: "acp", name: "My agent", command: ["mine"] } }) };
      if (p.startsWith("/api/agents?") || p === "/api/agents") return { status: 200, body: JSON.stringify(agents) };
      if (m === "DELETE" && p === "/api/agents/mine") {
        agents = agents.filter((a) => a.name !== "mine");
        return { status: 204, body: "" };
      }
      return { status: 404, body: '{"error":{"code":"not_found","message":"no"}}' };
    });
    render(<BackendSettings api={api} />);
    await userEvent.click(await screen.findByRole("button", { name: /^Demo agent/ }));
    expect(screen.queryByRole("button", { name: /^Remove/ })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: /^My agent/ }));
    await userEvent.click(screen.getByRole("button", { name: "Remove My agent" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: /^My agent/ })).toBeNull());
    expect(calls).toContain("DELETE /api/agents/mine");
  });
});
