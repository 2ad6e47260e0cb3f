// A review sent to the agent shows in the transcript as a card of its
// comments, not as the message's text (docs/ARCHITECTURE.md §Review).
import { render, screen } from "@testing-library/react";
import { expect, it } from "vitest";
import type { ReviewComment } from "../../contract/wire.gen";
import type { Message } from "../../transport/types";
import { transcriptItems } from "../session/transcriptItems";
import { ReviewCard } from "./ReviewCard";

const comment = { id: "rvc_1", workspace_id: "w", path: "api/server.go", side: "new", line: 12, quote: "return nil", text: "handle the error", state: "sent", run_id: "r1", created_at: "", updated_at: "" } as ReviewComment;

it("passes a message's review to its row, and the card lists path:line, the quote and the text", () => {
  const m = { id: "m1", session_id: "s", role: "user", content: "Review comments on your work… (1):\n\n1. api/server.go:12\n…", run_id: "r1", created_at: "", review: [comment] } as Message;
  const plain = { ...m, id: "m2", review: undefined } as Message;
  const items = transcriptItems({ messages: [m, plain], runs: { view: () => undefined, hasOlder: () => false }, queued: new Set(), cache: new WeakMap() });
  const users = items.filter((i) => i.kind === "user");
  expect(users.map((i) => (i.kind === "user" ? i.review?.length ?? 0 : -1))).toEqual([1, 0]);
  render(<ReviewCard comments={[comment]} />);
  expect(screen.getByRole("region", { name: "Review: 1 comment" })).toBeTruthy();
  expect(screen.getByText("api/server.go:12")).toBeTruthy();
  expect(screen.getByText("return nil")).toBeTruthy();
  expect(screen.getByText("handle the error")).toBeTruthy();
});
