import { describe, expect, it } from "vitest";
import { draftHandoff } from "../../src/agent/index.js";
import { HANDOFF_TODO_HEADING } from "../../src/handoff/index.js";
import { SessionWriter } from "../recall/recall-fixture.js";
import { useSessionSandbox } from "../support/session-sandbox.js";

const sandbox = useSessionSandbox();

describe("a handoff and the task list", () => {
  it("carries the list in force, flags included, into the new session's first prompt", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("fix the parser");
    await w.bash("npm test", "FAIL parser keeps comments", 1);
    await w.tool(
      "todo",
      {
        items: [
          { content: "Fix the parser", status: "completed", evidence: "npm test" },
          { content: "Write the docs", status: "pending" },
        ],
      },
      "Task list updated",
    );
    const draft = await draftHandoff(
      { session, activeModel: "fake/active", createClient: () => expect.unreachable() },
      "ship it",
      { edit: true },
    );
    expect(draft.text).toContain(
      [
        HANDOFF_TODO_HEADING,
        "1. [completed] Fix the parser (evidence: npm test)",
        "   flagged: completed, but the latest `npm test` (turn 1) exited 1",
        "2. [pending] Write the docs",
      ].join("\n"),
    );
  });
});
