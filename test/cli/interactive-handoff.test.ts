import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { MODEL } from "./interactive-harness.js";
import { PANTO_MAIN, runPanto } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * `/handoff` in the interactive session, in a real terminal (tmux): the draft is shown, edited in
 * $EDITOR at the user's word, and the session goes on in a new session file named after the old.
 */
const { start, closeAfter } = useAnthropicSandboxes("test-key");

describe("/handoff in the interactive session", { timeout: 90_000 }, () => {
  it("shows the draft, opens it in $EDITOR on e, and continues in a new session whose first prompt is the edited draft", async () => {
    const { box, server, env } = await start();
    server.enqueue({ type: "text", text: "Noted: the port is 48213." });
    expect(
      (await runPanto(["-m", MODEL, "-p", "the staging port is 48213"], { cwd: box.project, env })).code,
    ).toBe(0);
    const editor = join(box.project, "fake-editor.sh");
    await writeFile(editor, '#!/bin/sh\nsed -i "s/Use port 48213./Use port 48213. EDITED BY HAND./" "$1"\n');
    await chmod(editor, 0o755);
    const terminal = closeAfter(
      await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "-c"], {
        cwd: box.project,
        env: { ...env, EDITOR: editor },
        columns: 120,
        rows: 60,
      }),
    );
    await terminal.waitFor(/Ctrl-D exits/);
    const requestsBefore = server.requests.length;

    server.enqueue(
      { type: "text", text: "## Where things stand\n- Use port 48213.\n\n## Open problems\n- None." },
      { type: "text", text: "Carrying on from the handoff." },
    );
    await terminal.type("/handoff deploy to staging");
    await terminal.press("Enter");
    await terminal.waitFor(/Start a new session with this first prompt\? y \(yes\), e \(edit/);
    const shown = await terminal.screen({ joined: true });
    expect(shown).toContain("# Handoff: deploy to staging");
    expect(shown).toContain("- Use port 48213.");
    expect(server.requests).toHaveLength(requestsBefore + 1);

    await terminal.type("e");
    await terminal.press("Enter");
    const done = await terminal.waitFor(/Handed off to a new session [0-9a-f]{8}/);
    expect(done).toContain("Carrying on from the handoff.");
    const first = server.requests.at(-1)?.body as { messages: Array<{ content: Array<{ text?: string }> }> };
    expect(first.messages).toHaveLength(1);
    expect(first.messages[0]?.content[0]?.text).toContain("- Use port 48213. EDITED BY HAND.");

    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
    const listed = await runPanto(["sessions", "--json"], { cwd: box.project, env });
    const rows = JSON.parse(listed.stdout) as Array<{
      id: string;
      parent?: { id: string; relation: string };
    }>;
    expect(rows).toHaveLength(2);
    const [child, parent] = rows;
    expect(child?.parent).toMatchObject({ id: parent?.id, relation: "handoff" });
  });

  it("starts nothing on n", async () => {
    const { box, server, env } = await start();
    server.enqueue({ type: "text", text: "ok" });
    expect((await runPanto(["-m", MODEL, "-p", "hello"], { cwd: box.project, env })).code).toBe(0);
    const terminal = closeAfter(
      await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "-c"], {
        cwd: box.project,
        env,
        rows: 50,
      }),
    );
    await terminal.waitFor(/Ctrl-D exits/);
    server.enqueue({ type: "text", text: "## Where things stand\n- Said hello." });
    await terminal.type("/handoff anything");
    await terminal.press("Enter");
    await terminal.waitFor(/Start a new session with this first prompt\?/);
    await terminal.type("n");
    await terminal.press("Enter");
    await terminal.waitFor(/Handoff cancelled: no session was started\./);
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
    const listed = JSON.parse(
      (await runPanto(["sessions", "--json"], { cwd: box.project, env })).stdout,
    ) as unknown[];
    expect(listed).toHaveLength(1);
  });
});
