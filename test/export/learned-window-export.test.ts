import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../src/core/index.js";
import { exportSession, memorySink } from "../../src/export/index.js";
import { scanSession } from "../../src/export/scan-session.js";
import { openSession } from "../../src/session/index.js";

const answer = (provider: string, model: string, text: string, promptTokens: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider,
  api: "anthropic-messages",
  model,
  stopReason: "stop",
  usage: { promptTokens, outputTokens: 10, resentOutputTokens: 10 },
});

/** A session written by the real store: window entries and a compaction carrying `windows`. */
async function sessionWithWindows(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "panto-export-window-"));
  const path = join(dir, "s.jsonl");
  const session = await openSession(path, { cwd: dir });
  await session.appendMessage({ role: "user", content: [{ type: "text", text: "first" }] });
  await session.appendMessage(answer("anthropic", "big", "one", 1200));
  await session.appendWindow("local/small", {
    contextWindow: 6000,
    requestTokens: 6400,
    estimatedTokens: 8000,
  });
  await session.appendWindow("anthropic/big", { contextWindow: 200_000 });
  await session.appendCompaction(
    {
      summary: "S",
      trigger: "overflow",
      model: "local/small",
      fellBack: false,
      turnsSummarised: 1,
      turnsKept: 0,
      tokensSummarised: 1200,
      tokensKept: 0,
      summaryTokens: 1,
      sizeSources: { usage: 1, estimate: 0 },
    },
    [],
  );
  await session.close();
  return path;
}

describe("the export reads the learned window from the real entries", () => {
  it("takes the window of the model that answered last, from window entries or a compaction's windows", async () => {
    const path = await sessionWithWindows();
    // The last answer came from anthropic/big: its window, not the latest one learned.
    expect((await scanSession(path)).window).toBe(200_000);

    const resumed = await openSession(path, { cwd: join(path, "..") });
    await resumed.appendMessage({ role: "user", content: [{ type: "text", text: "second" }] });
    await resumed.appendMessage(answer("local", "small", "two", 900));
    await resumed.close();
    // local/small's window is known only from the compaction's `windows` and its window entry.
    expect((await scanSession(path)).window).toBe(6000);

    const sink = memorySink();
    await exportSession({ path, format: "html" }, sink);
    const html = sink.text();
    expect(html).toMatch(/<line class="window"/);
    expect(html).toMatch(/context window 6,000/);
    expect(html).toContain('<span class="key window">learned window</span>');
  });

  it("draws no window line when the session learned none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "panto-export-window-"));
    const path = join(dir, "s.jsonl");
    const session = await openSession(path, { cwd: dir });
    await session.appendMessage({ role: "user", content: [{ type: "text", text: "only" }] });
    await session.appendMessage(answer("anthropic", "big", "one", 1200));
    await session.close();
    expect((await scanSession(path)).window).toBeUndefined();
    const sink = memorySink();
    await exportSession({ path, format: "html" }, sink);
    expect(sink.text()).not.toMatch(/<line class="window"/);
  });
});
