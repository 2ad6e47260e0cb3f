import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiClient, type RawResponse } from "../../transport/api";
import type { AgentInfo } from "../../transport/types";
import { BackendSettings } from "./AgentSettings";
import { SettingsDialog } from "./Dialogs";

const KEY = "sk-ant-very-secret-0123456789-wxyz";

/** A settings store that behaves like PUT /api/settings: merge, then answer everything. */
function fakeApi(settings: Record<string, unknown>, agents: AgentInfo[][]) {
  const puts: unknown[] = [];
  let agentReads = 0;
  const api = new ApiClient(async (m, p, b): Promise<RawResponse> => {
    if (p === "/api/settings" && m === "GET") return { status: 200, body: JSON.stringify(settings) };
    if (p === "/api/settings" && m === "PUT") {
      const patch = JSON.parse(b!) as Record<string, unknown>;
      puts.push(patch);
      Object.assign(settings, patch);
      return { status: 200, body: JSON.stringify(settings) };
    }
    if (p === "/api/agents" || p === "/api/agents?refresh=1") return { status: 200, body: JSON.stringify(agents[Math.min(agentReads++, agents.length - 1)]) };
    return { status: 404, body: '{"error":{"code":"not_found","message":"no"}}' };
  });
  return { api, puts, settings, agentReads: () => agentReads };
}

const AGENTS: AgentInfo[] = [
  { name: "claude", display_name: "Claude Code", installed: true, ok: true, version: "2.1.4" },
  { name: "gemini", display_name: "Gemini CLI", installed: false, ok: false, message: "gemini is not on PATH" },
  { name: "codex", display_name: "Codex", installed: true, ok: false, version: "0.9", message: "not signed in" },
];

const STORED = {
  "agents.claude": { command: ["claude"], env: ["A=1"], api_key: KEY, home: "/h/claude", future_field: true },
  theme: "x",
};

async function openAgent(name: string) {
  await userEvent.click(await screen.findByRole("button", { name: new RegExp(`^${name}`) }));
  return screen.getByRole("form", { name: `${name} settings` });
}

describe("agent settings", () => {
  it("lists agents with their state, version and message", async () => {
    const f = fakeApi({}, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const list = await screen.findByRole("list");
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "Claude Codeclaude2.1.4Ready",
      "Gemini CLIgeminiNot installedgemini is not on PATH",
      "Codexcodex0.9Needs attentionnot signed in",
    ]);
  });

  it("shows the stored config but never the API key, and saves a round trip keeping it", async () => {
    const f = fakeApi(structuredClone(STORED), [AGENTS]);
    const { container } = render(<BackendSettings api={f.api} />);
    const form = await openAgent("Claude Code");
    const field = (name: string) => within(form).getByLabelText(name) as HTMLInputElement;
    expect(field("Command").value).toBe("claude");
    expect(field("Environment").value).toBe("A=1");
    expect(field("Home folder").value).toBe("/h/claude");
    expect(field("API key").value).toBe("");
    expect(field("API key").type).toBe("password");
    expect(field("API key").placeholder).toContain("ends in …wxyz");
    expect(container.innerHTML).not.toContain(KEY.slice(0, -4));

    await userEvent.clear(field("Command"));
    await userEvent.type(field("Command"), `"/opt/my tools/claude" --verbose`);
    await userEvent.clear(field("Environment"));
    await userEvent.type(field("Environment"), "A=1{Enter}{Enter}HTTPS_PROXY=http://p:3128");
    await userEvent.type(field("Base URL"), "http://127.0.0.1:8080/v1");
    await userEvent.click(within(form).getByRole("button", { name: "Save Claude Code" }));

    await within(form).findByText(/Saved/);
    expect(f.puts).toEqual([
      {
        "agents.claude": {
          command: ["/opt/my tools/claude", "--verbose"],
          env: ["A=1", "HTTPS_PROXY=http://p:3128"],
          base_url: "http://127.0.0.1:8080/v1",
          api_key: KEY,
          home: "/h/claude",
          future_field: true,
        },
      },
    ]);
    expect(f.agentReads()).toBe(2); // checked again after saving

    // Collapse and reopen: the form shows what the server now holds.
    await userEvent.click(screen.getByRole("button", { name: /^Claude Code/ }));
    const again = await openAgent("Claude Code");
    expect((within(again).getByLabelText("Command") as HTMLInputElement).value).toBe(`'/opt/my tools/claude' --verbose`);
    expect((within(again).getByLabelText("Environment") as HTMLTextAreaElement).value).toBe("A=1\nHTTPS_PROXY=http://p:3128");
  });

  it("refuses bad environment lines and an unclosed quote without saving", async () => {
    const f = fakeApi({}, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const form = await openAgent("Codex");
    const env = within(form).getByLabelText("Environment");
    await userEvent.type(env, "GOOD=1{Enter}no equals sign{Enter}9LIVES=x");
    await userEvent.click(within(form).getByRole("button", { name: "Save Codex" }));
    const alert = within(form).getByRole("alert");
    expect(alert.textContent).toBe("Lines 2, 3 are not KEY=VALUE (a name of letters, digits and _, then =).");
    expect(env.getAttribute("aria-invalid")).toBe("true");
    expect(env.getAttribute("aria-describedby")).toBe(alert.id);

    await userEvent.clear(env);
    await userEvent.type(within(form).getByLabelText("Command"), `codex "app-server`);
    await userEvent.click(within(form).getByRole("button", { name: "Save Codex" }));
    expect(within(form).getByRole("alert").textContent).toContain("unclosed double quote");
    expect(within(form).getByLabelText("Command").getAttribute("aria-invalid")).toBe("true");
    expect(f.puts).toEqual([]);
  });

  it("replaces or removes the key, and clears the typed key once saved", async () => {
    const f = fakeApi(structuredClone(STORED), [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const form = await openAgent("Claude Code");
    const key = within(form).getByLabelText("API key") as HTMLInputElement;
    await userEvent.type(key, "sk-new-key-000000000000-abcd");
    await userEvent.click(within(form).getByRole("button", { name: "Save Claude Code" }));
    await within(form).findByText(/Saved/);
    expect((f.puts[0] as Record<string, { api_key: string }>)["agents.claude"]!.api_key).toBe("sk-new-key-000000000000-abcd");
    expect(key.value).toBe("");
    expect(key.placeholder).toContain("ends in …abcd");

    await userEvent.click(within(form).getByRole("checkbox", { name: "Remove" }));
    expect(key.disabled).toBe(true);
    await userEvent.click(within(form).getByRole("button", { name: "Save Claude Code" }));
    await waitFor(() => expect(f.puts).toHaveLength(2));
    expect((f.puts[1] as Record<string, Record<string, unknown>>)["agents.claude"]).not.toHaveProperty("api_key");
  });

  it("saves the adapter's options as a map and refuses a repeated key", async () => {
    const f = fakeApi({}, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const form = await openAgent("Codex");
    const opts = within(form).getByLabelText("Options");
    await userEvent.type(opts, "sandbox=read-only{Enter}sandbox=x");
    await userEvent.click(within(form).getByRole("button", { name: "Save Codex" }));
    expect(within(form).getByRole("alert").textContent).toContain("Line 2 is");
    expect(f.puts).toEqual([]);

    await userEvent.clear(opts);
    await userEvent.type(opts, "sandbox=read-only{Enter}approval_policy=never");
    await userEvent.click(within(form).getByRole("button", { name: "Save Codex" }));
    await waitFor(() => expect(f.puts).toHaveLength(1));
    expect((f.puts[0] as Record<string, { options: unknown }>)["agents.codex"]!.options).toEqual({ sandbox: "read-only", approval_policy: "never" });
  });

  it("Check again re-reads the agents", async () => {
    const f = fakeApi({}, [AGENTS, AGENTS.map((a) => ({ ...a, installed: true, ok: true, message: undefined }))]);
    render(<BackendSettings api={f.api} />);
    expect(await screen.findByText("Not installed")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: /Check again/ }));
    await waitFor(() => expect(screen.queryByText("Not installed")).toBeNull());
    expect(screen.getAllByText("Ready")).toHaveLength(3);
    expect(f.puts).toEqual([]);
  });

  it("explains a save the server refuses", async () => {
    const f = fakeApi({}, [AGENTS]);
    f.api.putSettings = async () => {
      throw new Error("database is read-only");
    };
    render(<BackendSettings api={f.api} />);
    const form = await openAgent("Codex");
    await userEvent.click(within(form).getByRole("button", { name: "Save Codex" }));
    expect((await within(form).findByRole("alert")).textContent).toBe("Could not save: database is read-only");
  });
});

describe("the command and server agents", () => {
  const more: AgentInfo[] = [
    { name: "command", display_name: "Any command", installed: false, ok: false, message: "Set the command line to run" },
    { name: "openai-compatible", display_name: "OpenAI-compatible server", installed: false, ok: false, message: "No OpenAI-compatible server at http://127.0.0.1:11434/v1" },
  ];

  it("says which is not set up and which cannot be reached", async () => {
    const f = fakeApi({ "agents.command": { command: ["nosuchllm", "{prompt}"] } }, [more]);
    render(<BackendSettings api={f.api} />);
    const items = within(await screen.findByRole("list")).getAllByRole("listitem");
    expect(items.map((li) => li.querySelector(".badge")?.textContent)).toEqual(["Command not found", "Server not reachable"]);
  });

  it("updates the Any command row once it is set up, without a reload, and its form shows only what applies", async () => {
    const ready = [{ ...more[0]!, installed: true, ok: true, message: undefined }, more[1]!];
    const f = fakeApi({}, [more, ready]);
    render(<BackendSettings api={f.api} />);
    expect(await screen.findByText("Not set up")).toBeTruthy();
    const form = await openAgent("Any command");
    for (const gone of ["Base URL", "API key", "Home folder"]) expect(within(form).queryByLabelText(gone)).toBeNull();
    await userEvent.type(within(form).getByLabelText("Command"), "llm {{prompt}");
    await userEvent.click(within(form).getByRole("button", { name: "Save Any command" }));
    await waitFor(() => expect(screen.queryByText("Not set up")).toBeNull());
    expect(screen.getByText("Ready")).toBeTruthy();
    expect(f.puts).toEqual([{ "agents.command": { command: ["llm", "{prompt}"] } }]);
  });

  it("keeps Base URL, API key and Home for other agents", async () => {
    const f = fakeApi({}, [more]);
    render(<BackendSettings api={f.api} />);
    const form = await openAgent("OpenAI-compatible server");
    for (const f of ["Base URL", "API key", "Home folder"]) expect(within(form).getByLabelText(f)).toBeTruthy();
  });
});

describe("retention setting", () => {
  it("is Off by default, saves a number of days, and turns off again", async () => {
    const f = fakeApi({}, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const days = (await screen.findByLabelText("Compact runs older than")) as HTMLInputElement;
    // Nothing beside Save reads like a stray label while retention is off.
    expect(screen.queryByRole("button", { name: "Turn off" })).toBeNull();
    expect(days.value).toBe("");
    expect(days.placeholder).toBe("Off");
    expect(screen.getByText(/token-by-token events of finished runs older than/)).toBeTruthy();

    await userEvent.type(days, "1.5");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByRole("alert").textContent).toContain("whole number of days");
    expect(f.puts).toEqual([]);

    await userEvent.clear(days);
    await userEvent.type(days, "30{Enter}");
    expect((await screen.findByRole("status")).textContent).toBe("Saved: runs older than 30 days are compacted.");
    expect(screen.queryByRole("button", { name: "Off" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Turn off" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Turn off" })).toBeNull());
    await waitFor(() => expect(days.value).toBe(""));
    expect(f.puts).toEqual([{ retention_days: 30 }, { retention_days: 0 }]);
    expect(f.settings.retention_days).toBe(0);
  });

  it("shows a stored value", async () => {
    const f = fakeApi({ retention_days: 90 }, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    await waitFor(() => expect((screen.getByLabelText("Compact runs older than") as HTMLInputElement).value).toBe("90"));
  });
});

describe("the Settings dialog", () => {
  it("shows the agent and history sections only with a backend", async () => {
    const f = fakeApi({}, [AGENTS]);
    const { unmount } = render(<SettingsDialog theme="system" onTheme={() => {}} onAbout={() => {}} onClose={() => {}} api={f.api} />);
    expect(await screen.findByRole("heading", { name: "Agents" })).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "History" })).toBeTruthy();
    unmount();
    render(<SettingsDialog theme="system" onTheme={() => {}} onAbout={() => {}} onClose={() => {}} />);
    expect(screen.queryByRole("heading", { name: "Agents" })).toBeNull();
    expect(screen.getByText(/appear once the backend is connected/)).toBeTruthy();
  });
});

describe("runs at once", () => {
  it("shows the default, refuses a bad number before saving, saves one, and clears back to the default", async () => {
    const f = fakeApi({}, [AGENTS]);
    render(<BackendSettings api={f.api} />);
    const box = (await screen.findByLabelText("Runs at once")) as HTMLInputElement;
    expect(box.value).toBe("");
    expect(box.placeholder).toBe("4");
    const save = screen.getByRole("button", { name: "Save runs at once" });
    await userEvent.type(box, "0");
    await userEvent.click(save);
    expect(screen.getByRole("alert").textContent).toContain("whole number from 1 to 64");
    expect(f.puts).toEqual([]);
    await userEvent.clear(box);
    await userEvent.type(box, "2");
    await userEvent.click(save);
    expect((await screen.findByRole("status")).textContent).toContain("up to 2 runs work at once");
    await userEvent.clear(box);
    await userEvent.click(save);
    await waitFor(() => expect(f.puts).toEqual([{ max_concurrent_runs: 2 }, { max_concurrent_runs: null }]));
  });
});
