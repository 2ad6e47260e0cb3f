import { describe, expect, it } from "vitest";
import { CSP } from "./csp";

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
}

describe("CSP", () => {
  const d = directives(CSP);
  it("allows only same-origin scripts: no inline, no eval, no remote", () => {
    expect(d.get("script-src")).toEqual(["'self'"]);
    expect(CSP).not.toMatch(/unsafe-eval|unsafe-inline|\*|https?:/);
  });
  it("confines connections, objects, frames, base and forms", () => {
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'none'"]);
    expect(d.get("img-src")).toEqual(["'self'", "data:"]);
  });
});
