import { describe, expect, it } from "vitest";
import { agentLabel, definitionOf, emptyAddForm, formFromOffer } from "./addAgent";

describe("add agent form", () => {
  it("splits the command line into the program and its arguments, and env lines into a map", () => {
    const d = definitionOf({ ...emptyAddForm(), id: " my-agent ", name: "My agent", command: "'/opt/my agent/run' --acp 'a b'", env: "A=1\nB=x=y\n" });
    expect(d).toEqual({ id: "my-agent", name: "My agent", kind: "acp", command: "/opt/my agent/run", args: ["--acp", "a b"], env: { A: "1", B: "x=y" } });
  });

  it("leaves out what is empty, so the backend names the missing field", () => {
    expect(definitionOf({ ...emptyAddForm(), id: "x", kind: "openai-compatible", base_url: " http://h/v1 " })).toEqual({ id: "x", name: "", kind: "openai-compatible", base_url: "http://h/v1" });
  });

  it("fills the form from a registry offer, quoting what needs it", () => {
    const f = formFromOffer({ id: "auggie", name: "Auggie CLI", command: "npx", args: ["--yes", "@augmentcode/auggie@0.15.0", "--acp"], env: { AUGMENT_DISABLE_AUTO_UPDATE: "1" }, install_hint: "npm install -g @augmentcode/auggie", installed: false, source: "registry" });
    expect(f).toEqual({ id: "auggie", name: "Auggie CLI", kind: "acp", command: "npx --yes @augmentcode/auggie@0.15.0 --acp", env: "AUGMENT_DISABLE_AUTO_UPDATE=1", base_url: "" });
    expect(definitionOf(f).args).toEqual(["--yes", "@augmentcode/auggie@0.15.0", "--acp"]);
  });

  it("names an agent by its display name, else its id", () => {
    const agents = [{ name: "my-acp", display_name: "My ACP Agent" }, { name: "bare" }];
    expect(agentLabel(agents, "my-acp")).toBe("My ACP Agent");
    expect(agentLabel(agents, "bare")).toBe("bare");
    expect(agentLabel(null, "gone")).toBe("gone");
  });
});
