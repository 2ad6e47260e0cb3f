import { describe, expect, it } from "vitest";
import { ApiError, BackendUnavailableError } from "../../transport/api";
import { bannerError } from "./bannerError";

// Issue 23.13: a banner says what happened in one sentence and offers the
// fix; the transport's own words only under Details.
describe("bannerError", () => {
  it.each([
    {
      name: "a follow that lost the connection (Chromium)",
      err: new TypeError("Failed to fetch"),
      doing: "Cannot follow this run",
      lead: "Cannot follow this run: the connection to Hermes Desk was lost. It retries by itself; try again if this stays.",
      fix: "retry",
      details: "Failed to fetch",
    },
    {
      name: "WebKit's words for the same",
      err: new TypeError("Load failed"),
      doing: undefined,
      lead: "The connection to Hermes Desk was lost. It retries by itself; try again if this stays.",
      fix: "retry",
      details: "Load failed",
    },
    {
      name: "the SSE follow refused with a bare status",
      err: new ApiError(502, "http_502", "Cannot follow run (502)"),
      doing: "Cannot follow this run",
      lead: "Cannot follow this run: Hermes Desk hit a problem on its side. Try again; the log has the details.",
      fix: "retry",
      details: "Cannot follow run (502)",
    },
    {
      name: "a generic refusal with no body",
      err: new ApiError(500, "http_500", "Request failed (500)"),
      doing: undefined,
      lead: "Hermes Desk hit a problem on its side. Try again; the log has the details.",
      fix: "retry",
      details: "Request failed (500)",
    },
    {
      name: "signed out",
      err: new ApiError(401, "unauthorized", "Request failed (401)"),
      doing: undefined,
      lead: "This window is no longer signed in. Open it again from Hermes Desk (tray → Open).",
      fix: "retry",
      details: "Request failed (401)",
    },
    {
      name: "gone",
      err: new ApiError(404, "http_404", "Request failed (404)"),
      doing: "Cannot follow this run",
      lead: "Cannot follow this run: it no longer exists. It may have been deleted in another window.",
      fix: "retry",
      details: "Request failed (404)",
    },
    {
      name: "no backend",
      err: new BackendUnavailableError(),
      doing: undefined,
      lead: "The connection to Hermes Desk was lost. It retries by itself; try again if this stays.",
      fix: "retry",
      details: "Backend not connected",
    },
    {
      name: "the service's own safe sentence keeps its words and its fix",
      err: new ApiError(409, "agent_not_installed", "Claude Code is not installed"),
      doing: undefined,
      lead: "Claude Code is not installed.",
      fix: "install",
      details: "",
    },
    {
      name: "protocol noise goes to Details",
      err: new ApiError(400, "bad_request", "acp: invalid params (code -32602)"),
      doing: "Cannot follow this run",
      lead: "Cannot follow this run: Invalid params.",
      fix: "retry",
      details: "acp: invalid params (code -32602)",
    },
    {
      name: "a note the app wrote offers no fix",
      err: "Attachments go with a new message: send it when the agent is free.",
      doing: undefined,
      lead: "Attachments go with a new message: send it when the agent is free.",
      fix: undefined,
      details: "",
    },
  ])("$name", ({ err, doing, lead, fix, details }) => {
    const b = bannerError(err, doing);
    expect(b.lead).toBe(lead);
    expect(b.fix).toBe(fix);
    expect(b.details).toBe(details);
  });
});
