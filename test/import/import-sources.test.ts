import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/index.js";
import { type ImportReport, importSessions } from "../../src/import/index.js";
import { openSession, parseSessionLine, type SessionEntry } from "../../src/session/index.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

async function place() {
  const root = await mkdtemp(join(tmpdir(), "panto-import-"));
  const project = join(root, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  return { pantoHome: join(root, "home"), projectRoot: project, cwd: project, root };
}

async function importOne(name: string): Promise<{
  report: ImportReport;
  entries: SessionEntry[];
  warnings: string[];
  context: ReturnType<Awaited<ReturnType<typeof openSession>>["effectiveContext"]>;
}> {
  const where = await place();
  const outcome = await importSessions(join(FIXTURES, name), where, false);
  const report = outcome.sessions[0] as ImportReport;
  const lines = (await readFile(report.sessionPath, "utf8")).trimEnd().split("\n");
  const entries = lines.slice(1).map((line) => {
    const parsed = parseSessionLine(line);
    if (parsed.kind !== "entry") throw new Error(`line not an entry: ${line}`);
    return parsed.entry;
  });
  const warnings: string[] = [];
  const session = await openSession(report.sessionPath, {
    cwd: where.cwd,
    onWarning: (message) => warnings.push(message),
  });
  const context = session.effectiveContext();
  await session.close();
  return { report, entries, warnings, context };
}

/** Every tool call of `messages` is answered by the message right after its answer. */
function pairingHolds(messages: readonly Message[]): boolean {
  return messages.every((message, index) => {
    if (message.role !== "assistant") return true;
    const calls = message.content.flatMap((block) => (block.type === "tool-call" ? [block.id] : []));
    if (calls.length === 0) return true;
    const next = messages[index + 1];
    const answered = next?.role === "tool" ? next.content.map((result) => result.toolCallId) : [];
    return calls.every((id) => answered.includes(id));
  });
}

function roles(messages: readonly Message[]): string {
  return messages.map((message) => message.role[0]).join("");
}

describe("panto import of a Claude Code session", () => {
  it("pairs tools, keeps thinking with its signature, stands an image in as text, and makes the compact summary a compaction block", async () => {
    const { report, entries, warnings, context } = await importOne("claude-code-session.jsonl");
    expect(report.format).toBe("claude-code");
    expect(report.sourceSessionId).toBe("cc-session-1");
    expect(report.model).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(report.counts).toMatchObject({
      turns: 3,
      messages: { user: 3, assistant: 5, tool: 2 },
      toolCalls: 2,
      toolResults: 2,
      unansweredCalls: 0,
      thinking: 1,
      images: 1,
      compactions: 1,
      keptCopies: 0,
      answersWithUsage: 5,
    });
    // The abandoned branch, the title summary and the file snapshot are notes; the snapshot's type is unknown.
    expect(report.counts?.unknown).toEqual({ "claude-code file-history-snapshot": 1 });
    expect(
      entries.filter((entry) => entry.type === "note").map((entry) => (entry as { kind: string }).kind),
    ).toEqual([
      "claude-code summary",
      "claude-code file-history-snapshot",
      "claude-code user entry off the active branch",
      "claude-code assistant entry off the active branch",
    ]);
    expect(report.warnings).toEqual([
      expect.stringMatching(/claude-code-session\.jsonl, line 18: incomplete last line/),
    ]);
    // The split lines of one response are one answer, with its thinking signature and usage (P = input + cache).
    const first = entries.find((entry) => entry.type === "message" && entry.message.role === "assistant");
    expect(first?.type === "message" && first.message).toMatchObject({
      provider: "anthropic",
      api: "anthropic-messages",
      stopReason: "tool-use",
      content: [
        { type: "thinking", text: "I should read the file first.", signature: "sig-claude-1" },
        { type: "tool-call", id: "toolu_1", name: "Read" },
      ],
      usage: { promptTokens: 1210, outputTokens: 40, cacheWriteTokens: 1200 },
    });
    // Replay: the compaction block, then only the turn after it; the older turns stay on record.
    expect(context.compaction?.summary).toContain("showed a screenshot of a login form");
    expect(roles(context.messages)).toBe("uata");
    expect(pairingHolds(context.messages)).toBe(true);
    const result = context.messages[2];
    expect(result?.role === "tool" && result.content[0]).toMatchObject({ toolName: "Write", isError: true });
    const compaction = entries.find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({
      trigger: "manual",
      turnsSummarised: 2,
      turns: { through: 2, kept: [], total: 2 },
      keptMessages: 0,
    });
    const image = entries.find(
      (entry) => entry.type === "message" && JSON.stringify(entry.message).includes("[image (image/png"),
    );
    expect(image).toBeDefined();
    expect(warnings).toEqual([]);
  });
});

describe("panto import of a Codex rollout", () => {
  it("groups an answer's items, reads usage from token counts, answers an unanswered call, and makes the compacted item a compaction", async () => {
    const { report, entries, warnings, context } = await importOne("codex-rollout.jsonl");
    expect(report.format).toBe("codex");
    expect(report.sourceSessionId).toBe("codex-session-1");
    expect(report.model).toBe("openai/gpt-5-codex");
    expect(report.counts).toMatchObject({
      turns: 3,
      toolCalls: 3,
      toolResults: 3,
      unansweredCalls: 1,
      thinking: 1,
      images: 1,
      compactions: 1,
      answersWithUsage: 4,
    });
    expect(report.counts?.unknown).toEqual({ "codex response_item ghost_snapshot": 1 });
    expect(report.skipped).toMatchObject({
      turn_context: 1,
      "event_msg token_count": 4,
      "event_msg user_message": 1,
    });
    expect(report.warnings).toEqual([
      expect.stringMatching(/codex-rollout\.jsonl, line 25: incomplete last line/),
    ]);
    const answers = entries.flatMap((entry) =>
      entry.type === "message" && entry.message.role === "assistant" ? [entry.message] : [],
    );
    // Reasoning and the call of one response are one answer; its usage is the token count after it.
    expect(answers[0]).toMatchObject({
      api: "openai-responses",
      model: "gpt-5-codex",
      content: [
        { type: "thinking", text: "**Listing the files** with ls." },
        { type: "tool-call", id: "call_1", name: "shell", arguments: { command: ["ls"] } },
      ],
      usage: { promptTokens: 2400, outputTokens: 60, reasoningTokens: 30, resentOutputTokens: 30 },
    });
    expect(JSON.stringify(answers[0])).not.toContain("gAAAA");
    // The first user message is the environment context and the prompt together: one turn.
    const firstUser = entries.find((entry) => entry.type === "message" && entry.message.role === "user");
    expect(firstUser?.type === "message" && firstUser.message.content.length).toBe(2);
    const standIn = entries.find(
      (entry) =>
        entry.type === "message" && JSON.stringify(entry.message).includes("no result for this call"),
    );
    expect(standIn?.type === "message" && standIn.message).toMatchObject({
      role: "tool",
      content: [{ toolCallId: "call_2", toolName: "apply_patch", isError: true }],
    });
    expect(context.compaction?.summary).toContain("three-stage pipeline");
    expect(roles(context.messages)).toBe("uata");
    expect(pairingHolds(context.messages)).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe("panto import of a pi session", () => {
  it("follows the active branch and keeps the turns pi's compaction kept as copies after the block", async () => {
    const { report, entries, warnings, context } = await importOne("pi-session.jsonl");
    expect(report.format).toBe("pi");
    expect(report.sourceSessionId).toBe("pi-session-1");
    expect(report.counts).toMatchObject({
      turns: 3,
      toolCalls: 2,
      toolResults: 2,
      unansweredCalls: 0,
      thinking: 1,
      images: 1,
      compactions: 1,
      keptCopies: 3,
      answersWithUsage: 5,
    });
    expect(report.counts?.unknown).toEqual({ "pi experimental_thing": 1 });
    expect(report.warnings).toEqual([
      expect.stringMatching(/pi-session\.jsonl, line 17: incomplete last line/),
    ]);
    const compaction = entries.find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({
      turnsSummarised: 2,
      turnsKept: 1,
      turns: { through: 2, kept: [3], total: 3 },
      keptMessages: 3,
    });
    // The block, the kept turn (its prompt, the call and the result), then the answer pi wrote after.
    expect(context.compaction?.summary).toContain("off-by-one");
    expect(roles(context.messages)).toBe("uata");
    expect(context.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "Fix the TODO" }] });
    expect(pairingHolds(context.messages)).toBe(true);
    const thinking = entries.find(
      (entry) => entry.type === "message" && JSON.stringify(entry.message).includes("grep for TODO"),
    );
    expect(thinking?.type === "message" && thinking.message.content[0]).toEqual({
      type: "thinking",
      text: "grep for TODO",
      signature: "sig-pi-1",
    });
    expect(
      entries.some(
        (entry) => entry.type === "note" && entry.kind === "pi message entry off the active branch",
      ),
    ).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe("panto import, whatever the source", () => {
  it("finds the session it made before instead of importing the same bytes twice, and imports them again once they change", async () => {
    const where = await place();
    const source = join(where.root, "copy.jsonl");
    await writeFile(source, await readFile(join(FIXTURES, "pi-session.jsonl")));
    const first = await importSessions(source, where, false);
    const second = await importSessions(source, where, false);
    expect(second.sessions[0]).toMatchObject({
      status: "exists",
      sessionId: first.sessions[0]?.sessionId,
      sessionPath: first.sessions[0]?.sessionPath,
    });
    await writeFile(
      source,
      `${await readFile(source, "utf8")}\n`.replace(/"content":"half\n$/, '"content":"whole"}}\n'),
    );
    const third = await importSessions(source, where, false);
    expect(third.sessions[0]?.status).toBe("imported");
    expect(third.sessions[0]?.sessionId).not.toBe(first.sessions[0]?.sessionId);
  });

  it("reads a folder: every recognised session under it, the rest listed as unrecognised", async () => {
    const where = await place();
    const folder = join(where.root, "sources", "nested");
    await mkdir(folder, { recursive: true });
    for (const name of ["claude-code-session.jsonl", "codex-rollout.jsonl", "pi-session.jsonl"])
      await writeFile(join(folder, name), await readFile(join(FIXTURES, name)));
    await writeFile(join(folder, "other.jsonl"), '{"hello":"world"}\n');
    const outcome = await importSessions(join(where.root, "sources"), where, true);
    expect(outcome.sessions.map((report) => [report.format, report.status])).toEqual([
      ["claude-code", "would_import"],
      ["codex", "would_import"],
      ["pi", "would_import"],
    ]);
    expect(outcome.unrecognised).toEqual([
      {
        source: join(folder, "other.jsonl"),
        reason: expect.stringContaining("other.jsonl: not a Claude Code, Codex or pi session (line 1"),
      },
    ]);
  });
});

describe("panto import of a compaction in the middle of a turn", () => {
  it("keeps the interrupted turn as copies after the block, so the answer the source went on with follows its own prompt (Claude Code's auto-compact)", async () => {
    const where = await place();
    const base = { sessionId: "cc-mid", cwd: "/p", timestamp: "2025-10-01T10:00:00.000Z" };
    const answer = (uuid: string, parentUuid: string, content: unknown[]) => ({
      ...base,
      type: "assistant",
      uuid,
      parentUuid,
      message: {
        id: `m-${uuid}`,
        role: "assistant",
        model: "claude-opus-4-1",
        content,
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    });
    const lines = [
      {
        ...base,
        type: "user",
        uuid: "a",
        parentUuid: null,
        message: { role: "user", content: "run the tests" },
      },
      answer("b", "a", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }]),
      {
        ...base,
        type: "user",
        uuid: "c",
        parentUuid: "b",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: "1 failing" }],
        },
      },
      {
        ...base,
        type: "system",
        subtype: "compact_boundary",
        uuid: "d",
        parentUuid: null,
        logicalParentUuid: "c",
        compactMetadata: { trigger: "auto", preTokens: 190000 },
      },
      {
        ...base,
        type: "user",
        uuid: "e",
        parentUuid: "d",
        isCompactSummary: true,
        message: { role: "user", content: "Summary: the tests were run." },
      },
      answer("f", "e", [{ type: "text", text: "One test fails; fixing it." }]),
    ];
    const source = join(where.root, "mid.jsonl");
    await writeFile(source, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const report = (await importSessions(source, where, false)).sessions[0] as ImportReport;
    const entries = (await readFile(report.sessionPath, "utf8"))
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(entries.find((entry) => entry.type === "compaction")).toMatchObject({
      trigger: "overflow",
      keptMessages: 3,
      turns: { through: 0, kept: [1], total: 1 },
    });
    const session = await openSession(report.sessionPath, {
      cwd: where.cwd,
      onWarning: (message) => expect.fail(message),
    });
    const context = session.effectiveContext();
    await session.close();
    expect(context.compaction?.summary).toContain("Summary: the tests were run.");
    expect(roles(context.messages)).toBe("uata");
    expect(pairingHolds(context.messages)).toBe(true);
  });

  it("takes a Codex compaction's summary from its rebuilt history when its message is empty", async () => {
    const where = await place();
    const wrap = (type: string, payload: unknown) =>
      JSON.stringify({ timestamp: "2025-10-01T10:00:00.000Z", type, payload });
    const user = (text: string) => ({
      type: "message",
      role: "user",
      content: [{ type: "input_text", text }],
    });
    const source = join(where.root, "rollout.jsonl");
    await writeFile(
      source,
      [
        wrap("session_meta", { id: "cx", cwd: "/p" }),
        wrap("response_item", user("first question")),
        wrap("response_item", {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "first answer" }],
        }),
        wrap("compacted", {
          message: "",
          replacement_history: [user("first question"), user("CARRIED SUMMARY of the first question")],
        }),
        wrap("response_item", user("second question")),
        "",
      ].join("\n"),
    );
    const report = (await importSessions(source, where, false)).sessions[0] as ImportReport;
    const session = await openSession(report.sessionPath, { cwd: where.cwd });
    const context = session.effectiveContext();
    await session.close();
    expect(context.compaction?.summary).toContain("CARRIED SUMMARY of the first question");
    expect(roles(context.messages)).toBe("u");
  });
});
