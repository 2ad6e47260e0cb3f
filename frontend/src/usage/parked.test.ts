import { describe, expect, it } from "vitest";
import { parkedText } from "./parked";

describe("parkedText", () => {
  it("names the resume time", () => {
    const at = new Date(2026, 10, 27, 15, 0).toISOString();
    expect(parkedText(at, "en-GB")).toBe("Waiting for quota — resumes at 15:00");
  });
  it("says only the wait without a time", () => expect(parkedText(undefined)).toBe("Waiting for quota"));
  it("says only the wait for an unreadable time", () => expect(parkedText("soon")).toBe("Waiting for quota"));
});
