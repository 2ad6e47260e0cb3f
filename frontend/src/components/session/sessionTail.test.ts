import { describe, expect, it } from "vitest";
import type { SessionDetail } from "../../transport/types";
import { withTail } from "./sessionTail";

const msg = (id: string, content = id) => ({ id, session_id: "ses_1", role: "user" as const, content });
const session = (ids: string[], title = "T", id = "ses_1"): SessionDetail => ({ id, project_id: "p1", title, agent: "demo", messages: ids.map((i) => msg(i)) });

describe("withTail", () => {
  const cases: { name: string; held: SessionDetail | null; fresh: SessionDetail; tail: number; want: string[] | null; title?: string }[] = [
    { name: "a tail shorter than asked is the whole session", held: null, fresh: session(["a", "b"]), tail: 3, want: ["a", "b"] },
    { name: "nothing held: read the whole session", held: null, fresh: session(["c", "d"]), tail: 2, want: null },
    { name: "another session held: read the whole session", held: session(["a", "b", "c"], "T", "ses_2"), fresh: session(["b", "c"]), tail: 2, want: null },
    { name: "the tail replaces what it overlaps, the older stay", held: session(["a", "b", "c"]), fresh: session(["b", "c", "d"]), tail: 3, want: ["a", "b", "c", "d"] },
    { name: "a tail of the same messages keeps the count", held: session(["a", "b", "c", "d"]), fresh: session(["c", "d"]), tail: 2, want: ["a", "b", "c", "d"] },
    { name: "a withdrawn follow-up in the tail goes", held: session(["a", "b", "c", "x"]), fresh: session(["b", "c"]), tail: 2, want: ["a", "b", "c"] },
    { name: "more came than the tail holds: read the whole session", held: session(["a", "b"]), fresh: session(["c", "d"]), tail: 2, want: null },
    { name: "the session's fields come from the fresh read", held: session(["a", "b"], "old"), fresh: session(["b", "c"], "new"), tail: 2, want: ["a", "b", "c"], title: "new" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = withTail(c.held, c.fresh, c.tail);
      expect(got ? got.messages.map((m) => m.id) : null).toEqual(c.want);
      if (c.title) expect(got?.title).toBe(c.title);
    });
  }

  it("keeps an older message's content as held, takes the tail's as read", () => {
    const held = { ...session(["a", "b"]), messages: [msg("a", "old a"), msg("b", "streaming")] };
    const fresh = { ...session(["b", "c"]), messages: [msg("b", "final"), msg("c")] };
    expect(withTail(held, fresh, 2)?.messages.map((m) => m.content)).toEqual(["old a", "final", "c"]);
  });
});
