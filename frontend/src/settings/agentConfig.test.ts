import { describe, expect, it } from "vitest";
import { ConfigError, fromForm, keyHint, parseEnv, parseOptions, parseRetention, retentionText, shellJoin, shellSplit, toForm } from "./agentConfig";

describe("shellSplit", () => {
  it.each([
    ["", []],
    ["   ", []],
    ["hermes acp", ["hermes", "acp"]],
    ["  /opt/bin/claude   --verbose ", ["/opt/bin/claude", "--verbose"]],
    [`run "two words" 'single $HOME'`, ["run", "two words", "single $HOME"]],
    [`a\\ b c`, ["a b", "c"]],
    [`say "quote \\" inside" x`, ["say", `quote " inside`, "x"]],
    [`"" empty`, ["", "empty"]],
    [`pre"mid"post`, ["premidpost"]],
    [`keep "back\\slash\\n"`, ["keep", "back\\slash\\n"]],
    ["tab\tsep\nline", ["tab", "sep", "line"]],
  ])("splits %j", (line, argv) => {
    expect(shellSplit(line)).toEqual(argv);
  });

  it.each([[`open "quote`], [`open 'quote`], ["trailing \\"]])("refuses %j", (line) => {
    expect(() => shellSplit(line)).toThrow(ConfigError);
  });

  it.each([[["hermes", "acp"]], [["/path with space/bin", "--flag=a b", ""]], [["it's", `"q"`, "$X", "a\\b"]], [[]]])(
    "round-trips %j through shellJoin",
    (argv) => {
      expect(shellSplit(shellJoin(argv))).toEqual(argv);
    },
  );
});

describe("parseEnv", () => {
  it("takes KEY=VALUE lines, skipping blank ones and keeping = in values", () => {
    expect(parseEnv("A=1\n\n  B_2=x=y  \r\nEMPTY=")).toEqual(["A=1", "B_2=x=y", "EMPTY="]);
  });
  it.each([
    ["NOVALUE", "Line 1 is"],
    ["A=1\n=nokey\n2BAD=x\nGOOD=1\nsp ace=1", "Lines 2, 3, 5 are"],
    ["export A=1", "Line 1 is"],
  ])("names the bad lines of %j", (text, msg) => {
    try {
      parseEnv(text);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).field).toBe("env");
      expect((e as Error).message).toContain(msg);
    }
  });
});

describe("form ↔ config", () => {
  const stored = { command: ["hermes", "acp"], env: ["A=1"], base_url: "http://127.0.0.1:9", api_key: "sk-secret-0123456789abcd", home: "/h", options: { sandbox: "workspace-write", yolo: "1" }, future: 7 };

  it("never puts the stored key into the form", () => {
    const f = toForm(stored);
    expect(f).toEqual({ command: "hermes acp", env: "A=1", base_url: "http://127.0.0.1:9", api_key: "", clearKey: false, home: "/h", options: "sandbox=workspace-write\nyolo=1" });
  });

  it("keeps the stored key and unknown fields unless told otherwise", () => {
    expect(fromForm(toForm(stored), stored)).toEqual(stored);
  });

  it("replaces or removes the key, and leaves out emptied fields", () => {
    const f = { ...toForm(stored), command: "", env: "\n", base_url: " ", home: "", options: " ", api_key: " new-key " };
    expect(fromForm(f, stored)).toEqual({ api_key: "new-key", future: 7 });
    expect(fromForm({ ...f, api_key: "", clearKey: true }, stored)).toEqual({ future: 7 });
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => fromForm({ ...toForm(undefined), base_url: "ftp://x" }, undefined)).toThrow(/http/);
  });

  it("ignores malformed stored values", () => {
    expect(toForm({ command: "not-an-array" as unknown as string[], env: [1, "A=1"] as unknown as string[] })).toMatchObject({ command: "", env: "A=1" });
  });
});

describe("parseOptions", () => {
  it("reads key=value lines, trimming around the =", () => {
    expect(parseOptions("sandbox = danger-full-access\n\napproval_policy=never\nempty=")).toEqual({
      sandbox: "danger-full-access",
      approval_policy: "never",
      empty: "",
    });
  });

  it.each([
    ["=x", "Line 1 is"],
    ["no equals", "Line 1 is"],
    ["a=1\na=2", "Line 2 is"],
    ["ok=1\nbad key=2\n=3", "Lines 2, 3 are"],
  ])("refuses %j", (text, msg) => {
    try {
      parseOptions(text);
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).field).toBe("options");
      expect((e as Error).message).toContain(msg);
    }
  });

  it("drops non-string stored option values from the form", () => {
    expect(toForm({ options: { a: "1", b: 2 } as unknown as Record<string, string> }).options).toBe("a=1");
  });
});

describe("keyHint", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["short", "A key is set"],
    ["sk-0123456789abcdef", "A key is set (ends in …cdef)"],
  ])("%j → %j", (k, want) => {
    expect(keyHint(k)).toBe(want);
  });
});

describe("retention", () => {
  it.each([
    [undefined, ""],
    [0, ""],
    [-3, ""],
    [30, "30"],
    ["30", ""],
  ])("shows %j as %j", (v, text) => {
    expect(retentionText(v)).toBe(text);
  });
  it.each([
    ["", 0],
    [" 7 ", 7],
  ])("stores %j as %j", (text, n) => {
    expect(parseRetention(text)).toBe(n);
  });
  it.each([["0"], ["-1"], ["1.5"], ["abc"], ["99999999"]])("refuses %j", (text) => {
    expect(() => parseRetention(text)).toThrow(/whole number/);
  });
});
