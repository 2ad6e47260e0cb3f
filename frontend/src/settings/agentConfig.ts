// An agent's settings ("agents.<name>", backend/adapter.Config) as the
// Settings dialog edits them: the command as one shell-like line, the
// environment one KEY=VALUE per line, and the API key never shown back.

/** The stored JSON object; unknown fields are kept on save. */
export interface AgentConfig {
  command?: string[];
  env?: string[];
  base_url?: string;
  api_key?: string;
  home?: string;
  /** The adapter's own switches (Codex sandbox, Hermes yolo, …). */
  options?: Record<string, string>;
  [other: string]: unknown;
}

/** What the form holds: text, plus what to do with the stored key. */
export interface AgentForm {
  command: string;
  env: string;
  base_url: string;
  /** A new key typed by the person; "" keeps the stored one. */
  api_key: string;
  clearKey: boolean;
  home: string;
  /** options as key=value lines. */
  options: string;
}

export class ConfigError extends Error {
  constructor(
    readonly field: keyof AgentForm,
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Splits a command line the way a POSIX shell splits words: whitespace
 * separates, '…' keeps everything literal, "…" keeps spaces and honours \" \\ \$ \`,
 * and a backslash outside quotes escapes the next character. No expansion:
 * the backend execs the argv directly.
 */
export function shellSplit(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      if (i + 1 >= line.length) throw new ConfigError("command", "The command ends with a lone backslash.");
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new ConfigError("command", `The command has an unclosed ${quote === "'" ? "single" : "double"} quote.`);
  if (inWord) out.push(cur);
  return out;
}

/** Quotes argv back into one line that shellSplit reads as the same argv. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map((a) => (a !== "" && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One KEY=VALUE per line; blank lines are skipped; any bad line is an error naming its number. */
export function parseEnv(text: string): string[] {
  const out: string[] = [];
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const eq = line.indexOf("=");
    if (eq <= 0 || !ENV_NAME.test(line.slice(0, eq))) bad.push(i + 1);
    else out.push(line);
  });
  if (bad.length > 0) {
    const which = bad.length === 1 ? `Line ${bad[0]} is` : `Lines ${bad.join(", ")} are`;
    throw new ConfigError("env", `${which} not KEY=VALUE (a name of letters, digits and _, then =).`);
  }
  return out;
}

const OPTION_NAME = /^[A-Za-z0-9_.-]+$/;

/** One key=value per line into the options map; a bad or repeated key is an error naming its line. */
export function parseOptions(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const eq = line.indexOf("=");
    const key = eq > 0 ? line.slice(0, eq).trim() : "";
    if (!OPTION_NAME.test(key) || Object.hasOwn(out, key)) bad.push(i + 1);
    else out[key] = line.slice(eq + 1).trim();
  });
  if (bad.length > 0) {
    const which = bad.length === 1 ? `Line ${bad[0]} is` : `Lines ${bad.join(", ")} are`;
    throw new ConfigError("options", `${which} not key=value with a new key (letters, digits, _ . -).`);
  }
  return out;
}

function optionsText(o: unknown): string {
  if (!o || typeof o !== "object" || Array.isArray(o)) return "";
  return Object.entries(o as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === "string")
    .map(([k, v]) => `${k}=${v}`)
    .join("\n");
}

/** The form for a stored config; the key field starts empty by design. */
export function toForm(c: AgentConfig | undefined): AgentForm {
  return {
    command: shellJoin(Array.isArray(c?.command) ? c.command.filter((x): x is string => typeof x === "string") : []),
    env: (Array.isArray(c?.env) ? c.env.filter((x): x is string => typeof x === "string") : []).join("\n"),
    base_url: typeof c?.base_url === "string" ? c.base_url : "",
    api_key: "",
    clearKey: false,
    home: typeof c?.home === "string" ? c.home : "",
    options: optionsText(c?.options),
  };
}

/**
 * The config to store from the form, over the stored one (whose unknown
 * fields and, unless replaced or cleared, API key stay). Empty fields are
 * left out so the agent's defaults apply. Throws ConfigError on bad input.
 */
export function fromForm(f: AgentForm, stored: AgentConfig | undefined): AgentConfig {
  const command = shellSplit(f.command);
  const env = parseEnv(f.env);
  const options = parseOptions(f.options);
  const base = f.base_url.trim();
  if (base !== "" && !/^https?:\/\/[^\s/]+/i.test(base)) {
    throw new ConfigError("base_url", "The base URL must start with http:// or https://.");
  }
  const out: AgentConfig = { ...(stored ?? {}) };
  delete out.command;
  delete out.env;
  delete out.base_url;
  delete out.home;
  delete out.options;
  if (command.length > 0) out.command = command;
  if (env.length > 0) out.env = env;
  if (base !== "") out.base_url = base;
  const home = f.home.trim();
  if (home !== "") out.home = home;
  if (Object.keys(options).length > 0) out.options = options;
  const key = f.api_key.trim();
  if (key !== "") out.api_key = key;
  else if (f.clearKey) delete out.api_key;
  return out;
}

/** Says a key is set without showing it: at most its last 4 characters, and only for long keys. */
export function keyHint(key: unknown): string | undefined {
  if (typeof key !== "string" || key === "") return undefined;
  return key.length >= 16 ? `A key is set (ends in …${key.slice(-4)})` : "A key is set";
}

/** retention_days as the form shows it: "" means off. */
export function retentionText(v: unknown): string {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? String(v) : "";
}

/** The retention_days value to store: 0 (off) or a whole number of days. */
export function parseRetention(text: string): number {
  const t = text.trim();
  if (t === "") return 0;
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1 || n > 36500) throw new Error("Enter a whole number of days (1 or more), or leave it empty for Off.");
  return n;
}
