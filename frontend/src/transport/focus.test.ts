import { describe, expect, it } from "vitest";
import { ApiClient, focusClientId, type RawResponse } from "./api";

// Focus claims are per client (docs/ARCHITECTURE.md §Notifications): every
// report names this page, the same id each time.
describe("setFocus", () => {
  it("names this page's client id in every report", async () => {
    const bodies: unknown[] = [];
    const api = new ApiClient(async (_m, _p, b): Promise<RawResponse> => {
      bodies.push(JSON.parse(String(b)));
      return { status: 200, body: "{}" };
    });
    await api.setFocus("s1", true);
    await api.setFocus("s2", false);
    expect(focusClientId).toMatch(/\S{8,}/);
    expect(bodies).toEqual([
      { client_id: focusClientId, session_id: "s1", focused: true },
      { client_id: focusClientId, session_id: "s2", focused: false },
    ]);
  });
});
