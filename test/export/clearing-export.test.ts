import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ExportFormat, exportSession, memorySink } from "../../src/export/index.js";
import { type ClearingEntry, openSession, type Session } from "../../src/session/index.js";
import { appendToolTurn, assistant, record, user } from "../session/session-test-helpers.js";

/**
 * Tool-result clearing (issue 34) in the Markdown and JSON exports, as on the HTML page: a result a
 * clearing in force holds as a stub is shown whole (the file keeps it) and marked as cleared with
 * the clearing's figures; a clearing `/unclear` took back marks nothing; clearing and unclear
 * entries read as lines, and JSON says which results are stubs and which clearings are in force.
 */
let dir: string;
let path: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-clearing-export-"));
  path = join(dir, "s.jsonl");
  session = await openSession(path, { cwd: dir });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const OUTPUT = (id: string) => `${id} says: ${"result text ".repeat(20)}`;

const turn = (n: number, ids: string[]) => appendToolTurn(session, n, ids, OUTPUT);

function clear(ids: string[], tokensBefore: number, tokensAfter: number): Promise<ClearingEntry> {
  return session.appendClearing({
    results: ids.map((id) => ({
      toolCallId: id,
      toolName: "bash",
      tokens: 250,
      stub: `[cleared to save context: output of bash "ls", 250 tokens; recall {"tool_result": "${id}"} reads it back]`,
    })),
    tokensBefore,
    tokensAfter,
    reason: "trigger",
  });
}

/** Turns 1 and 2 (results t1, t2 and t3); clearing 1 takes t1 and t2, clearing 2 takes t3 and is undone. */
async function clearedSession() {
  await turn(1, ["t1", "t2"]);
  await turn(2, ["t3"]);
  await session.appendMessage(user("prompt 3"));
  const first = await clear(["t1", "t2"], 9000, 5000);
  await session.appendMessage(assistant("answer 3"));
  const second = await clear(["t3"], 6000, 5500);
  await session.appendUnclear({ clearingId: second.id, tokensBefore: 5500, tokensAfter: 6000 });
  return { first, second };
}

async function exported(format: ExportFormat): Promise<string> {
  const sink = memorySink();
  await exportSession({ path, format, full: true }, sink);
  return sink.text();
}

/** The Markdown section (from its `### ` heading to the next) of the entry on `line`. */
function section(markdown: string, line: number): string {
  return (
    markdown.split(/^(?=### )/m).find((part) => new RegExp(`^### .* · line ${line}\\b`).test(part)) ?? ""
  );
}

/** Each `<details>` of a Markdown section, by the call whose result it shows (results in call order). */
function resultSummaries(markdown: string, line: number): string[] {
  return [...section(markdown, line).matchAll(/<summary>(.*?)<\/summary>/g)].map((match) => match[1] ?? "");
}

type JsonRecord = {
  line: number;
  effective?: boolean;
  cleared?: Record<string, string>;
  in_force?: boolean;
  entry?: { type: string; id: string };
};
const jsonLines = (text: string): JsonRecord[] =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as JsonRecord);

async function fileLines(): Promise<Array<{ id?: string; type?: string }>> {
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { id?: string; type?: string });
}

/** The file line (1-based, header = 1) of the entry with `id`. */
async function lineOf(id: string): Promise<number> {
  return (await fileLines()).findIndex((entry) => entry.id === id) + 1;
}

describe("export of a session with clearings", () => {
  it("Markdown marks the results a clearing in force stubs, with its figures, keeps them whole, and leaves an undone clearing's unmarked", async () => {
    const { first, second } = await clearedSession();
    const markdown = await exported("md");
    const [c1, c2] = [await lineOf(first.id), await lineOf(second.id)];
    // Line 4 holds the results of t1 and t2, line 8 that of t3.
    const [t1, t2] = resultSummaries(markdown, 4);
    for (const summary of [t1, t2])
      expect(summary).toContain(
        `cleared from the context by clearing 1 (line ${c1}), 250 tokens: the next request carries a one-line stub; recall reads it back`,
      );
    expect(section(markdown, 4)).toContain(OUTPUT("t1"));
    expect(section(markdown, 4)).toContain(OUTPUT("t2"));
    expect(section(markdown, 8)).toContain(OUTPUT("t3"));
    expect(section(markdown, 8)).not.toContain("cleared from the context");
    expect(markdown.match(/cleared from the context by/g)).toHaveLength(2);
    // The clearing and unclear entries read as lines, not as their raw JSON.
    expect(markdown).not.toContain('"type": "clearing"');
    expect(markdown).not.toContain('"type": "unclear"');
    const unclearLine = c2 + 1;
    expect(section(markdown, c1)).toMatch(
      new RegExp(
        `^### clearing 1 · line ${c1} · in force\\n\\n2 old tool results replaced by one-line stubs · the prompt passed clearing.trigger_tokens · next request 9,000 -> 5,000 tokens\\.`,
      ),
    );
    expect(section(markdown, c1)).toContain("- `t1` (bash, 250 tokens)\n- `t2` (bash, 250 tokens)");
    expect(section(markdown, c2)).toContain(
      `### clearing 2 · line ${c2} · taken back at line ${unclearLine}`,
    );
    expect(section(markdown, unclearLine)).toContain(
      `### unclear · line ${unclearLine}\n\nclearing 2 (line ${c2}) taken back (/unclear): its results are whole in the context again · next request 5,500 -> 6,000 tokens.`,
    );
    // The timeline lists the clearings with their figures and state.
    expect(markdown).toContain(
      `### Clearings\n\n1. 2 tool results (500 tokens) cleared, next request 9,000 -> 5,000 tokens: in force (line ${c1})\n2. 1 tool result (250 tokens) cleared, next request 6,000 -> 5,500 tokens: taken back at line ${unclearLine} (line ${c2})`,
    );
  });

  it("JSON names the clearing in force on each result the next request carries as a stub, and marks each clearing in force or not, other fields as before", async () => {
    const { first, second } = await clearedSession();
    const records = jsonLines(await exported("json"));
    const byLine = (line: number) => records.find((item) => item.line === line);
    expect(byLine(4)).toMatchObject({ effective: true, cleared: { t1: first.id, t2: first.id } });
    expect(Object.keys(byLine(4) ?? {})).toEqual(["line", "effective", "cleared", "entry"]);
    expect(byLine(8)?.effective).toBe(true);
    expect(byLine(8)).not.toHaveProperty("cleared");
    expect(records.filter((item) => item.cleared !== undefined).map((item) => item.line)).toEqual([4]);
    const c1 = byLine(await lineOf(first.id));
    const c2 = byLine(await lineOf(second.id));
    expect(c1).toMatchObject({ effective: false, in_force: true, entry: { type: "clearing", id: first.id } });
    expect(c2).toMatchObject({
      effective: false,
      in_force: false,
      entry: { type: "clearing", id: second.id },
    });
    // The entries are the file's own, outputs whole.
    const file = await fileLines();
    for (const item of records.slice(1)) expect(item.entry).toEqual(file[item.line - 1]);
    // in_force is on clearing entries only.
    expect(records.filter((item) => "in_force" in item).map((item) => item.entry?.type)).toEqual([
      "clearing",
      "clearing",
    ]);
  });

  it("after /unclear of the clearing in force nothing is marked cleared in any format", async () => {
    const { first } = await clearedSession();
    await session.appendUnclear({ clearingId: first.id, tokensBefore: 5000, tokensAfter: 9000 });
    const markdown = await exported("md");
    expect(markdown).not.toContain("cleared from the context by");
    expect(section(markdown, await lineOf(first.id))).toContain(
      `· taken back at line ${(await fileLines()).length}`,
    );
    const records = jsonLines(await exported("json"));
    expect(records.some((item) => item.cleared !== undefined)).toBe(false);
    expect(records.filter((item) => item.entry?.type === "clearing").map((item) => item.in_force)).toEqual([
      false,
      false,
    ]);
    const html = await exported("html");
    expect(html).not.toContain("cleared from the context");
    // The clearing entries read as sentences on the page too, not as their raw JSON.
    expect(html).not.toContain("&quot;type&quot;: &quot;clearing&quot;");
    expect(html).toContain("Clearing 1 · taken back at line");
    expect(html).toContain("2 old tool results replaced by one-line stubs · the prompt passed");
    expect(html).toContain("taken back (/unclear): its results are whole in the context again");
  });

  it("a clearing a compaction carries for its kept copies stays in force: the copy's record names it in JSON, and the original (shown once) is marked in Markdown and HTML", async () => {
    await turn(1, ["t1"]);
    await turn(2, ["t2"]);
    await session.appendMessage(user("prompt 3"));
    const clearing = await clear(["t2"], 9000, 5000);
    await session.appendMessage(assistant("answer 3"));
    const { messages } = session.effectiveContext();
    const kept = messages.slice(
      messages.findIndex(
        (message) => message.role === "user" && JSON.stringify(message).includes("prompt 2"),
      ),
    );
    const { compaction, copies } = await session.appendCompaction(record("S"), kept);
    expect(compaction.clearings?.map((carried) => carried.id)).toEqual([clearing.id]);
    const copyOfT2 = copies.find((copy) => copy.message.role === "tool");
    const records = jsonLines(await exported("json"));
    const copyRecord = records.find((item) => item.entry?.id === copyOfT2?.id);
    expect(copyRecord).toMatchObject({ effective: true, cleared: { t2: clearing.id } });
    expect(records.filter((item) => item.cleared !== undefined)).toHaveLength(1);
    expect(records.find((item) => item.entry?.id === clearing.id)?.in_force).toBe(true);
    // The original of t2 is on line 8; the page and the Markdown show it there (its copy points to it).
    const markdown = await exported("md");
    expect(resultSummaries(markdown, 8)[0]).toContain(
      `cleared from the context by clearing 1 (line ${await lineOf(clearing.id)})`,
    );
    expect(markdown.match(/cleared from the context by/g)).toHaveLength(1);
    expect((await exported("html")).match(/cleared from the context/g)).toHaveLength(1);
  });
});
