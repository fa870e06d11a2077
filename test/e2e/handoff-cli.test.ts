import { existsSync } from "node:fs";
import { chmod, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { jsonEvents, runCli, sessionLines } from "./run-cli.js";

/**
 * `/handoff` in print and JSON modes: the built CLI against the fake Anthropic server, the session
 * files real, `panto sessions` showing the lineage, and recall in the new session reaching the old.
 */
const TIMEOUT = 120_000;
const MODEL = "anthropic/claude-active";
const closeAfter = closeAfterEach();
const SECTIONS = [
  "## Where things stand\n- The parser keeps comments; `npm test` fails on one case.",
  "## Decisions and their reasons\n- Comments are kept as tokens, so the printer sees them.",
  "## Files and commands that matter\n- `src/parser.ts`, `npm test`",
  "## Open problems\n- FAIL parser keeps trailing comments",
].join("\n\n");

async function workedProject() {
  const t = await compactionCliProject(MODEL, closeAfter);
  t.server.enqueue(
    {
      type: "tool-calls",
      calls: [{ id: "toolu_w", name: "write", arguments: { path: "src/parser.ts", content: "export {}\n" } }],
    },
    { type: "text", text: "Wrote the parser. The secret handshake is 7731-kappa." },
  );
  expect((await t.run("write the parser", ["--allow-tools"])).code).toBe(0);
  await t.run("/pin keep comments as tokens");
  /** The session files panto created under PANTO_HOME (the test's own is in the project). */
  const sessions = async () => {
    const folder = join(t.home, "sessions");
    if (!existsSync(folder)) return [];
    const files = await readdir(folder, { recursive: true });
    return files.filter((file) => file.endsWith(".jsonl") && !file.endsWith("index.jsonl"));
  };
  return { ...t, sessions };
}

describe("/handoff in print and JSON modes", () => {
  it(
    "prints the draft and starts nothing without --yes; in JSON, a handoff event with no session",
    async () => {
      const t = await workedProject();
      t.server.enqueue({ type: "text", text: SECTIONS });
      const printed = await t.run("/handoff finish the comment support");
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain("# Handoff: finish the comment support");
      expect(printed.stdout).toContain("## Open problems\n- FAIL parser keeps trailing comments");
      expect(printed.stdout).toContain(
        "## Pinned notes (from the user, verbatim; always in force)\n1. keep comments as tokens",
      );
      expect(printed.stdout).toContain("- src/parser.ts: created in turn 1");
      expect(printed.stdout).toContain("nothing was started. Give --yes to start a new session");
      const request = t.server.requests.at(-1)?.body as { system?: unknown; tools?: unknown[] };
      expect(JSON.stringify(request.system)).toContain(
        "The goal of the new session: finish the comment support",
      );
      expect(request.tools ?? []).toEqual([]);

      t.server.enqueue({ type: "text", text: SECTIONS });
      const json = await t.run("/handoff finish the comment support", ["--json"]);
      expect(json.code, json.stderr).toBe(0);
      const event = jsonEvents(json.stdout).find((e) => e.type === "handoff");
      expect(event).toMatchObject({
        goal: "finish the comment support",
        model: MODEL,
        draft: expect.stringContaining("## Where things stand"),
        parent: { id: expect.any(String), path: t.session },
        session: null,
      });
      expect(await t.sessions()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "with --yes starts a new session named after its parent, sends the draft first, and recall there reaches the parent",
    async () => {
      const t = await workedProject();
      t.server.enqueue(
        { type: "text", text: SECTIONS },
        { type: "text", text: "Taking over: first I will run npm test." },
      );
      const json = await t.run("/handoff finish the comment support", ["--json", "--yes"]);
      expect(json.code, json.stderr).toBe(0);
      const events = jsonEvents(json.stdout);
      const handoff = events.find((e) => e.type === "handoff") as {
        session: { id: string; path: string };
        draft: string;
      };
      expect(handoff.session.path).not.toBe(t.session);
      expect(events.find((e) => e.type === "done")?.text).toContain(
        "Taking over: first I will run npm test.",
      );
      const first = t.server.requests.at(-1)?.body as {
        messages: Array<{ content: Array<{ text?: string }> }>;
      };
      expect(first.messages).toHaveLength(1);
      expect(first.messages[0]?.content[0]?.text).toBe(handoff.draft);

      const [header, ...entries] = await sessionLines(handoff.session.path);
      const parentHeader = (await sessionLines(t.session))[0] as { id: string };
      expect(header).toMatchObject({ parent: { id: parentHeader.id, path: t.session, relation: "handoff" } });
      // The first message is the draft (the run's sandbox record may come before it).
      const prompt = entries.find((entry) => (entry as { type?: string }).type === "message");
      expect(prompt).toMatchObject({ type: "message", message: { role: "user" } });

      const listed = await runCli(["sessions", "--json"], { cwd: t.project, env: t.env });
      const rows = JSON.parse(listed.stdout) as Array<{
        id: string;
        parent?: { id: string; relation: string };
      }>;
      expect(rows.find((row) => row.id === handoff.session.id)?.parent).toMatchObject({
        id: parentHeader.id,
        relation: "handoff",
      });
      const text = await runCli(["sessions"], { cwd: t.project, env: t.env });
      expect(text.stdout).toContain(`handoff of ${parentHeader.id.slice(0, 8)}`);

      t.server.enqueue(
        {
          type: "tool-calls",
          calls: [{ id: "toolu_r", name: "recall", arguments: { query: "secret handshake" } }],
        },
        { type: "text", text: "It is 7731-kappa." },
      );
      const child = await runCli(
        ["-m", MODEL, "--session", handoff.session.path, "-p", "what was the handshake?"],
        {
          cwd: t.project,
          env: t.env,
        },
      );
      expect(child.code, child.stderr).toBe(0);
      const result = JSON.stringify(t.server.requests.at(-1)?.body);
      expect(result).toContain(`turn 1 of the handoff parent session ${parentHeader.id.slice(0, 8)}`);
      expect(result).toContain("The secret handshake is 7731-kappa.");
      // The parent stays as it was, and resumable.
      t.server.enqueue({ type: "text", text: "still here" });
      expect((await t.run("are you there?")).stdout).toContain("still here");
    },
    TIMEOUT,
  );

  it(
    'panto -c -p "/handoff GOAL" --yes hands off the project\'s latest session and goes on in the new one',
    async () => {
      const t = await workedProject();
      const cli = (args: string[]) => runCli(["-m", MODEL, ...args], { cwd: t.project, env: t.env });
      t.server.enqueue({ type: "text", text: "Noted: the staging port is 48213." });
      expect((await cli(["-p", "the staging port is 48213"])).code).toBe(0);
      const [parent] = JSON.parse(
        (await runCli(["sessions", "--json"], { cwd: t.project, env: t.env })).stdout,
      ) as Array<{
        id: string;
      }>;

      t.server.enqueue({ type: "text", text: SECTIONS }, { type: "text", text: "Taking over the deploy." });
      const printed = await cli(["-c", "--yes", "-p", "/handoff deploy to staging"]);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain("# Handoff: deploy to staging");
      // Nobody reviewed it, so the draft is printed first, then where it went and the answer.
      expect(printed.stdout.indexOf("# Handoff: deploy to staging")).toBeLessThan(
        printed.stdout.indexOf("Handed off to a new session"),
      );
      expect(printed.stdout.indexOf("Handed off to a new session")).toBeLessThan(
        printed.stdout.indexOf("Taking over the deploy."),
      );
      expect(printed.stdout).not.toContain("nothing was started");
      // The draft was made from the latest session (the one -c continues), not the test's own file.
      const drafting = JSON.stringify(t.server.requests.at(-2)?.body);
      expect(drafting).toContain("the staging port is 48213");
      expect(drafting).not.toContain("write the parser");

      const rows = JSON.parse(
        (await runCli(["sessions", "--json"], { cwd: t.project, env: t.env })).stdout,
      ) as Array<{
        id: string;
        parent?: { id: string; relation: string };
      }>;
      expect(rows).toHaveLength(2);
      expect(rows[0]?.parent).toMatchObject({ id: parent?.id, relation: "handoff" });

      // -c now continues the new session: its first prompt, the draft, is in the next request.
      t.server.enqueue({ type: "text", text: "deployed" });
      expect((await cli(["-c", "-p", "go on"])).code).toBe(0);
      expect(JSON.stringify(t.server.requests.at(-1)?.body)).toContain("# Handoff: deploy to staging");
    },
    TIMEOUT,
  );

  it(
    "/handoff --edit calls no model: the user writes the sections in $EDITOR",
    async () => {
      const t = await workedProject();
      const editor = join(t.project, "fake-editor.sh");
      await writeFile(
        editor,
        '#!/bin/sh\nsed -i "s/(write here, or delete the section)/written by hand/" "$1"\n',
      );
      await chmod(editor, 0o755);
      const requests = t.server.requests.length;
      const printed = await t.run("/handoff --edit", [], { EDITOR: editor });
      expect(printed.code, printed.stderr).toBe(0);
      expect(t.server.requests).toHaveLength(requests);
      expect(printed.stdout).toContain("# Handoff: carry on with the work as it stands");
      expect(printed.stdout).toContain("## Where things stand\nwritten by hand");
      expect(printed.stdout).not.toContain("(write here");

      const none = await t.run("/handoff --edit", [], { EDITOR: "", VISUAL: "" });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("no editor");
    },
    TIMEOUT,
  );
});
