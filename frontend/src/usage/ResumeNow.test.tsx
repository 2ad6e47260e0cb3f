import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ResumeNow } from "./ResumeNow";

describe("ResumeNow", () => {
  it("resumes the run", async () => {
    const resume = vi.fn(async () => ({ accepted: true, status: "accepted" as const }));
    const onProblem = vi.fn();
    render(<ResumeNow runId="run_1" resume={resume} onProblem={onProblem} />);
    await userEvent.click(screen.getByRole("button", { name: "Resume now" }));
    await waitFor(() => expect(resume).toHaveBeenCalledWith("run_1"));
    expect(onProblem).not.toHaveBeenCalled();
  });
  it("says so when the run no longer waits", async () => {
    const resume = vi.fn(async () => ({ accepted: false, status: "not-active" as const, message: "the run is not waiting for quota" }));
    const onProblem = vi.fn();
    render(<ResumeNow runId="run_1" resume={resume} onProblem={onProblem} />);
    await userEvent.click(screen.getByRole("button", { name: "Resume now" }));
    await waitFor(() => expect(onProblem).toHaveBeenCalledWith("the run is not waiting for quota"));
  });
});
