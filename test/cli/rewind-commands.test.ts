import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeAfterEach } from "../support/close-after-each.js";
import { jsonLines, PANTO_MAIN, runPanto } from "./panto-process.js";
import { bash, projectTree, type RewindProject, rewindProject, sessionText, turn } from "./rewind-project.js";
import { TmuxTerminal } from "./tmux-terminal.js";

let current: RewindProject | undefined;
afterEach(async () => {
  await current?.server.close();
  current = undefined;
});
const closeAfter = closeAfterEach();

async function withTwoTurns(): Promise<RewindProject> {
  current = await rewindProject();
  await turn(current, "look around");
  await turn(current, "change the answer", [[bash("sed -i 's/42/7/' src/app.ts && echo new > added.txt")]]);
  return current;
}

function slash(value: RewindProject, command: string, json = false) {
  return runPanto(
    [...(json ? ["--json"] : []), "-m", "anthropic/claude-test", "--session", value.session, "-p", command],
    { cwd: value.box.project, env: value.env },
  );
}

describe("/rewind and /fork as the -p prompt (built CLI)", { timeout: 120_000 }, () => {
  it("/rewind lists the turns, --dry-run changes nothing, and /rewind TURN rewinds code and conversation", async () => {
    const value = await withTwoTurns();
    const list = await slash(value, "/rewind");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('"change the answer"  · src/app.ts, added.txt');
    const tree = await projectTree(value);
    const lines = await sessionText(value);
    const dry = await slash(value, "/rewind 2 --dry-run", true);
    expect(jsonLines(dry.stdout).find((event) => event.type === "rewind")).toMatchObject({
      dry_run: true,
      dropped_turns: [2],
    });
    expect(await projectTree(value)).toEqual(tree);
    expect(await sessionText(value)).toBe(lines);
    const done = await slash(value, "/rewind 2");
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("Rewound to before turn 2.");
    expect(await readFile(join(value.box.project, "src/app.ts"), "utf8")).toBe("export const answer = 42;\n");
    await expect(readFile(join(value.box.project, "added.txt"))).rejects.toThrow();
  });

  it("/fork TURN starts a new session from the turn and says so as a fork event", async () => {
    const value = await withTwoTurns();
    const parent = await sessionText(value);
    const run = await slash(value, "/fork 1", true);
    expect(run.code, run.stderr).toBe(0);
    const fork = jsonLines(run.stdout).find((event) => event.type === "fork");
    expect(fork).toMatchObject({ parent_path: value.session, turn: 1 });
    expect(await sessionText(value)).toBe(parent);
    const forked = await readFile(String(fork?.path), "utf8");
    expect(forked).toContain('"look around"');
    expect(forked).not.toContain('"change the answer"');
  });
});

describe("Esc Esc in the interactive session (tmux)", { timeout: 120_000 }, () => {
  it("opens the list of turns; picking one rewinds the files and the conversation", async () => {
    const value = await withTwoTurns();
    const terminal = closeAfter(
      await TmuxTerminal.start(
        [process.execPath, PANTO_MAIN, "-m", "anthropic/claude-test", "--session", value.session],
        {
          cwd: value.box.project,
          env: value.env,
          rows: 40,
          columns: 120,
        },
      ),
    );
    await terminal.waitFor(/Ctrl-D exits/);
    await terminal.press("Escape", "Escape");
    await terminal.waitFor(/Rewind to before which turn\?/);
    const screen = await terminal.waitFor(/"change the answer"/);
    expect(screen).toContain('"look around"');
    await terminal.press("Enter");
    await terminal.waitFor(/How\? /);
    await terminal.press("Enter");
    await terminal.waitFor(/Rewound to before turn 2\./);
    expect(await readFile(join(value.box.project, "src/app.ts"), "utf8")).toBe("export const answer = 42;\n");
    value.server.enqueue({ type: "text", text: "after the rewind" });
    await terminal.type("what now");
    await terminal.press("Enter");
    await terminal.waitFor(/after the rewind/);
    const sent = JSON.stringify(value.server.requests.at(-1)?.body);
    expect(sent).toContain("look around");
    expect(sent).not.toContain("change the answer");
  });
});
