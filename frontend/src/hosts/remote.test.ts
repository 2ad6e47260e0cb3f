import { describe, expect, it } from "vitest";
import type { HostState, Session } from "../transport/types";
import { ApiClient } from "../transport/api";
import { hostPath } from "../transport/host";
import type { Transport } from "../transport/transport";
import { copyTime, findHostSession, hostLabel, localCopyOf, unreachableSentence } from "./remote";

const remote: Session = { id: "s-remote", project_id: "p1", title: "Fix the parser", agent: "demo", created_at: "2026-11-27T14:00:00.123456789Z" };
const copy = (over: Partial<Session>): Session => ({ id: "s-copy", project_id: "imported", title: "Fix the parser", agent: "demo", imported_from: "host devbox", created_at: remote.created_at, updated_at: "2026-11-27T14:02:00Z", ...over });

describe("localCopyOf", () => {
  const cases: { name: string; local: Session[]; want?: string }[] = [
    { name: "none copied yet", local: [] },
    { name: "the copy", local: [copy({})], want: "s-copy" },
    { name: "the same instant written another way", local: [copy({ created_at: "2026-11-27T15:00:00.123+01:00" })], want: "s-copy" },
    { name: "another host's copy", local: [copy({ imported_from: "host other" })] },
    { name: "an agent's history, not a host's", local: [copy({ imported_from: "claude" })] },
    { name: "another session of the host", local: [copy({ created_at: "2026-11-27T13:00:00Z" })] },
    { name: "a local session", local: [{ ...remote, id: "s-local" }] },
    { name: "the newest of two", local: [copy({ id: "old", updated_at: "2026-11-27T14:01:00Z" }), copy({ id: "new", updated_at: "2026-11-27T14:05:00Z" })], want: "new" },
  ];
  for (const c of cases) {
    it(c.name, () => expect(localCopyOf("devbox", remote, c.local)?.id).toBe(c.want));
  }
  it("never matches a session with no time", () => {
    expect(localCopyOf("devbox", { ...remote, created_at: undefined }, [copy({ created_at: undefined })])).toBeUndefined();
  });
});

describe("unreachableSentence", () => {
  const now = new Date(2026, 10, 27, 18, 0);
  const at = (h: number, m: number, day = 27) => new Date(2026, 10, day, h, m).toISOString();
  const cases: { name: string; copy?: Session; want: string }[] = [
    { name: "no copy", want: "devbox can't be reached; its runs go on there. No copy of this session is kept here yet: it is copied when a run ends." },
    { name: "a copy from today", copy: copy({ updated_at: at(14, 2) }), want: "devbox can't be reached; its runs go on there. Showing the copy from 14:02." },
    { name: "a copy from another day", copy: copy({ updated_at: at(9, 5, 25) }), want: "devbox can't be reached; its runs go on there. Showing the copy from 2026-11-25 09:05." },
    { name: "a copy with no time", copy: copy({ updated_at: undefined, created_at: undefined }), want: "devbox can't be reached; its runs go on there. Showing the copy kept here." },
  ];
  for (const c of cases) {
    it(c.name, () => expect(unreachableSentence("devbox", c.copy, now)).toBe(c.want));
  }
  it("copyTime of nonsense is empty", () => expect(copyTime("not a time")).toBe(""));
});

describe("findHostSession", () => {
  it("asks each reachable host in turn and opens the one that has it", async () => {
    const asked: string[] = [];
    const raw = async (_m: string, p: string) => {
      asked.push(p);
      if (p === "/api/hosts/big/sessions/s9") return { status: 200, body: JSON.stringify({ id: "s9", project_id: "p2", title: "T", agent: "demo", messages: [] }) };
      if (p === "/api/hosts/big/projects") return { status: 200, body: JSON.stringify([{ id: "p2", name: "Two", workspace: "/srv/two" }]) };
      return { status: 404, body: JSON.stringify({ error: { code: "not_found", message: "no such session" } }) };
    };
    const t: Transport = { kind: "http", api: new ApiClient(raw), forHost: (host) => ({ kind: "http", host, api: new ApiClient((m, p) => raw(m, hostPath(host, p))) }) };
    const hosts = [
      { host: "away", reachable: false, since: "" },
      { host: "small", reachable: true, since: "" },
      { host: "big", reachable: true, since: "" },
    ];
    const r = await findHostSession(t, hosts, "s9");
    expect(r?.host).toBe("big");
    expect(r?.project.name).toBe("Two");
    expect(r?.session?.id).toBe("s9");
    expect(asked).toEqual(["/api/hosts/small/sessions/s9", "/api/hosts/big/sessions/s9", "/api/hosts/big/projects"]);
    expect(await findHostSession(t, hosts, "nowhere")).toBeUndefined();
  });
});

describe("hostLabel", () => {
  const rec = (target: string) => ({ id: "host_1a2b", target, status: "running", os: "linux", arch: "amd64", version: "", note: "", added_at: "" });
  const cases: { name: string; hosts: HostState[]; want: string }[] = [
    { name: "the target typed", hosts: [{ host: "host_1a2b", record: rec("build-box"), reachable: true, since: "" }], want: "build-box" },
    { name: "user at address", hosts: [{ host: "host_1a2b", record: rec("me@10.0.0.5"), reachable: true, since: "" }], want: "me@10.0.0.5" },
    { name: "no record known", hosts: [{ host: "host_1a2b", reachable: false, since: "" }], want: "host_1a2b" },
    { name: "a blank target", hosts: [{ host: "host_1a2b", record: rec("  "), reachable: true, since: "" }], want: "host_1a2b" },
    { name: "another host's record", hosts: [{ host: "host_other", record: rec("other-box"), reachable: true, since: "" }], want: "host_1a2b" },
    { name: "no hosts known", hosts: [], want: "host_1a2b" },
  ];
  for (const c of cases) {
    it(c.name, () => expect(hostLabel("host_1a2b", c.hosts)).toBe(c.want));
  }
});
