import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportSession, memorySink } from "../../src/export/index.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import type { Sandbox } from "../cli/panto-process.js";
import { startInteractiveAfterOneTurn } from "../support/interactive-after-one-turn.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sessionFileOf(box: Sandbox): Promise<string> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith(".jsonl") && entry.name !== "index.jsonl") found.push(path);
    }
  };
  await walk(join(box.home, "sessions"));
  expect(found).toHaveLength(1);
  return found[0] as string;
}

async function exported(path: string, format: "html" | "md"): Promise<string> {
  const sink = memorySink();
  await exportSession({ path, format }, sink);
  return sink.text();
}

/**
 * A session written by the real interactive session with every compaction control: a pin, a
 * failed /compact, a /compact, its undo and an unpin. The export must show each as what it is.
 */
async function recordControls(): Promise<string> {
  const { box, run, seen: first } = await startInteractiveAfterOneTurn();
  server = run.server;
  const { terminal } = run;
  let seen = first;
  terminal.type("/pin always run the linter\r");
  seen = await terminal.waitFor("Pinned note 1", seen);
  server.enqueue({
    type: "error",
    status: 400,
    body: JSON.stringify({
      type: "error",
      error: { type: "invalid_request_error", message: "SUMMARY-REFUSED" },
    }),
  });
  terminal.type("/compact\r");
  seen = await terminal.waitFor("SUMMARY-REFUSED", seen);
  server.enqueue({ type: "text", text: "THE-SUMMARY" });
  terminal.type("/compact\r");
  seen = await terminal.waitFor("Compacted", seen);
  terminal.type("/uncompact\r");
  seen = await terminal.waitFor("No compaction is in effect now.", seen);
  terminal.type("/unpin 1\r");
  await terminal.waitFor("Unpinned note 1", seen);
  terminal.type("\u0004");
  expect(await run.exit).toBe(0);
  return await sessionFileOf(box);
}

describe("export of the compaction controls' entries", { timeout: 90_000 }, () => {
  it("shows the failed compaction's error, the undone compaction with its pinned note, and pins linked to unpins", async () => {
    const path = await recordControls();
    const html = await exported(path, "html");

    const failed =
      html.match(/<section class="compaction failed trigger-manual"[\s\S]*?<\/section>/)?.[0] ?? "";
    expect(failed).toContain("SUMMARY-REFUSED");
    const compaction =
      html.match(/<section class="compaction trigger-manual undone"[\s\S]*?<\/section>/)?.[0] ?? "";
    expect(compaction).toContain("THE-SUMMARY");
    expect(compaction).toMatch(
      /<h4>Pinned notes<\/h4><ol class="pins"><li>always run the linter<\/li><\/ol>/,
    );
    const compactionLine = compaction.match(/id="L(\d+)"/)?.[1];
    expect(html).toMatch(
      new RegExp(
        `<article class="entry uncompact"[\\s\\S]*?<a href="#L${compactionLine}">compaction 2</a> was undone`,
      ),
    );
    const pinLine = html.match(/<article class="entry pin" id="L(\d+)"/)?.[1];
    expect(html).toMatch(
      new RegExp(`<article class="entry pin" id="L${pinLine}"[\\s\\S]*?always run the linter`),
    );
    expect(html).toContain(
      `<a href="#L${pinLine}">the note pinned at line ${pinLine}</a> is no longer pinned.`,
    );
    // Undone, the compaction is not where the effective context starts.
    expect(html).not.toContain("The effective context starts here");

    const markdown = await exported(path, "md");
    expect(markdown).toContain("SUMMARY-REFUSED");
    expect(markdown).toContain(`### pinned note: always run the linter · line ${pinLine}`);
    expect(markdown).toContain(`### compaction 2 (line ${compactionLine}) undone`);
    expect(markdown).toContain(`### unpinned the note pinned at line ${pinLine}`);
    expect(markdown).toMatch(/Pinned notes:\n\n- always run the linter/);
  });
});
