// The fold reads payload fields by name; the names are the Go structs'
// (backend/run/event.go). `go test ./backend/run -run TestPayloadsFile
// -update` writes their shape to testdata/payloads.json; this folds a
// payload of every type whose every read is recorded, and fails when the
// fold (or the run state machine it calls) reads a field the Go payload of
// that type does not have — a renamed Go field fails here.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../transport/types";
import { applyEvent } from "./fold";
import { newRunView } from "./model";

interface Field {
  kind: "string" | "number" | "bool" | "array" | "object" | "any";
  optional?: boolean;
  items?: Field;
  fields?: Record<string, Field>;
}
type Schema = Record<string, Record<string, Field>>;

const schema: Schema = JSON.parse(
  readFileSync(resolve(__dirname, "../../../backend/run/testdata/payloads.json"), "utf8"),
);

/** Reads of a field its Go struct does not have, as "type: path". */
type Misses = Set<string>;

/** A payload shaped like the Go struct whose reads of unknown keys land in misses. */
function recording(fields: Record<string, Field>, where: string, misses: Misses): object {
  const target: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(fields)) target[k] = sample(f, `${where}.${k}`, misses);
  return new Proxy(target, {
    get(t, k, r) {
      if (typeof k === "string" && !(k in t)) misses.add(`${where}.${k}`);
      return Reflect.get(t, k, r);
    },
  });
}

function sample(f: Field, where: string, misses: Misses): unknown {
  switch (f.kind) {
    case "string":
      return "x";
    case "number":
      return 1;
    case "bool":
      return true;
    case "array":
      return f.items ? [sample(f.items, `${where}[]`, misses)] : [];
    case "object":
      return f.fields ? recording(f.fields, where, misses) : {};
    default:
      return {};
  }
}

let seq = 0;
function ev(type: string, misses: Misses): RunEvent {
  seq++;
  const fields = schema[type];
  if (!fields) throw new Error(`no Go payload for ${type}`);
  return { event_id: `e${seq}`, seq, run_id: "r", session_id: "s", type, created_at: seq, terminal: type === "done", payload: recording(fields, type, misses) };
}

/**
 * Folds one event of type t after the events that open what it refers to
 * (a tool card, a pending prompt), so the fold takes its fullest path.
 */
function foldOne(t: string, misses: Misses): void {
  const v = newRunView("r", "s");
  for (const pre of ["run.started", "tool.started", "approval.requested", "clarify.requested"]) {
    if (pre !== t) applyEvent(v, ev(pre, misses));
  }
  applyEvent(v, ev(t, misses));
}

describe("payload fields the fold reads exist in backend/run/event.go", () => {
  const types = Object.keys(schema);
  it("has every event type", () => expect(types.length).toBeGreaterThan(20));
  for (const t of types) {
    it(t, () => {
      const misses: Misses = new Set();
      foldOne(t, misses);
      expect([...misses]).toEqual([]);
    });
  }
  it("catches a field the Go payload does not have", () => {
    const misses: Misses = new Set();
    const p = recording({ text: { kind: "string" } }, "token.delta", misses) as Record<string, unknown>;
    void p.txt;
    expect([...misses]).toEqual(["token.delta.txt"]);
  });
});
