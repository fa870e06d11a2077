import { describe, expect, it } from "vitest";
import { draftHandoff } from "../../src/agent/index.js";
import { HANDOFF_LEDGER_HEADING, HANDOFF_SECTIONS } from "../../src/handoff/index.js";
import { PINNED_NOTES_HEADING } from "../../src/session/index.js";
import { SessionWriter } from "../recall/recall-fixture.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { scriptedClients } from "./scripted-client.js";

const sandbox = useSessionSandbox();

async function workedSession() {
  const session = await sandbox.open(sandbox.path);
  const w = new SessionWriter(session);
  await session.appendPin("never edit src/legacy/");
  await w.user("fix the parser");
  await w.tool("edit", { path: "src/parser.ts", old_string: "a", new_string: "b" }, "Replaced 1 occurrence");
  await w.bash("npm test", "FAIL parser keeps comments", 1);
  await w.compact("Parser fix started; tests fail.", 1);
  await w.user("and the docs");
  await w.tool("write", { path: "docs/parser.md", content: "x" }, "Created docs/parser.md: 1 bytes, 1 line");
  return session;
}

describe("drafting a handoff", () => {
  it("asks the model for the sections with the goal, and composes them with the goal, the parent, the pins and the ledger", async () => {
    const session = await workedSession();
    const sections = HANDOFF_SECTIONS.map((heading) => `${heading}\n- model text`).join("\n\n");
    const { createClient, calls } = scriptedClients([{ reply: sections }]);
    const draft = await draftHandoff(
      { session, activeModel: "fake/active", createClient },
      "ship the parser fix",
    );
    expect(calls).toHaveLength(1);
    const request = calls[0]?.request;
    expect(request?.tools).toEqual([]);
    expect(request?.systemPrompt).toContain("You write the first prompt of a fresh session");
    expect(request?.systemPrompt).toContain("The goal of the new session: ship the parser fix");
    const prompt = JSON.stringify(request?.context.messages);
    expect(prompt).toContain("<previous-summary>");
    expect(prompt).toContain("Parser fix started; tests fail.");
    expect(prompt).toContain("docs/parser.md");
    expect(draft.model).toBe("fake/active");
    expect(draft.text).toBe(
      [
        "# Handoff: ship the parser fix",
        "",
        `This session takes over from session ${session.header.id} (started ${session.header.created.slice(0, 10)}). Its whole history stays on record: the \`recall\` tool searches it too, and reads its turns back with {"session": "parent"}.`,
        "",
        "## Goal\nship the parser fix",
        "",
        sections,
        "",
        `${PINNED_NOTES_HEADING}\n1. never edit src/legacy/`,
        "",
        HANDOFF_LEDGER_HEADING,
        "Files changed, newest first:",
        "- docs/parser.md: created in turn 2",
        "- src/parser.ts: edited in turn 1",
        "Commands, the latest run of each, newest first:",
        "- npm test → exit 1 in turn 1; first error: FAIL parser keeps comments",
      ].join("\n"),
    );
  });

  it("makes no model call for --edit: the sections are left for the user to write", async () => {
    const session = await workedSession();
    const { createClient, calls } = scriptedClients([]);
    const draft = await draftHandoff({ session, activeModel: "fake/active", createClient }, "", {
      edit: true,
    });
    expect(calls).toHaveLength(0);
    expect(draft.model).toBeUndefined();
    expect(draft.text).toContain("# Handoff: carry on with the work as it stands");
    for (const heading of HANDOFF_SECTIONS)
      expect(draft.text).toContain(`${heading}\n(write here, or delete the section)`);
    expect(draft.text).toContain(HANDOFF_LEDGER_HEADING);
  });

  it("falls back to the active model when the compaction model fails, and fails when both do", async () => {
    const session = await workedSession();
    const { PantoError } = await import("../../src/core/index.js");
    const down = new PantoError("server", "down");
    const fallback = scriptedClients([{ fail: down }, { reply: "## Where things stand\n- ok" }]);
    const draft = await draftHandoff(
      {
        session,
        activeModel: "fake/active",
        compactionModel: "fake/small",
        createClient: fallback.createClient,
      },
      "go",
    );
    expect(fallback.calls.map((call) => call.modelId)).toEqual(["fake/small", "fake/active"]);
    expect(draft.model).toBe("fake/active");
    const failing = scriptedClients([{ fail: down }]);
    await expect(
      draftHandoff({ session, activeModel: "fake/active", createClient: failing.createClient }, "go"),
    ).rejects.toMatchObject({ code: "server" });
  });
});
