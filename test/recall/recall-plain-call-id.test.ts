import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plainCallId } from "../../src/core/index.js";
import { recall } from "../../src/recall/recall.js";
import { openSession, type Session } from "../../src/session/index.js";
import { appendToolTurn } from "../session/session-test-helpers.js";

/**
 * A call id from another API (an import, a model switch) that Anthropic's wire cannot carry is sent
 * in its plain form: the model asks recall for the id it saw, and gets that result back.
 */
let dir: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-recall-plain-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const toolTurn = (id: string, output: string) => appendToolTurn(session, 1, [id], () => output);

describe("recall of a tool result by the id the model saw", () => {
  it("reads back a result whose recorded id is not plain, by its plain form as well as its own", async () => {
    const odd = 'functions.read:0 "q"';
    await toolTurn(odd, "THE ODD OUTPUT");
    await toolTurn("toolu_plain", "THE PLAIN OUTPUT");
    expect(plainCallId(odd)).toBe("functions_read_0__q_");
    const byOwn = await recall(session, { tool_result: odd });
    const byPlain = await recall(session, { tool_result: "functions_read_0__q_" });
    expect(byOwn.ok && byOwn.text).toContain("THE ODD OUTPUT");
    expect(byPlain.ok && byPlain.text).toContain("THE ODD OUTPUT");
    const plain = await recall(session, { tool_result: "toolu_plain" });
    expect(plain.ok && plain.text).toContain("THE PLAIN OUTPUT");
    const missing = await recall(session, { tool_result: "functions_read_1" });
    expect(missing.ok).toBe(false);
  });
});
