import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { jsonLines, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start } = useAnthropicSandboxes("k");
const setup = () => start({ responder: () => ({ type: "text", text: "seen" }) });
const BASE = ["-m", MODEL, "--sandbox", "full"];

/** The text of the first request's last user message, as the model got it. */
function sentPrompt(server: FakeServer): string {
  const body = server.requests[0]?.body as {
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  };
  const last = body.messages.filter((message) => message.role === "user").at(-1);
  if (typeof last?.content === "string") return last.content;
  return (last?.content ?? []).map((block) => block.text ?? "").join("");
}

const DIFF = "diff --git a/x.ts b/x.ts\n-old line\n+new line\n";

describe("nothing the user gave is dropped (built CLI)", { timeout: 90_000 }, () => {
  it("piped stdin with a -p value: the prompt, then stdin as a <stdin> block", async () => {
    const { box, server, env } = await setup();
    const result = await runPanto([...BASE, "-p", "review this"], { cwd: box.project, env, input: DIFF });
    expect(result.code, result.stderr).toBe(0);
    expect(sentPrompt(server)).toBe(`review this\n\n<stdin>\n${DIFF.trimEnd()}\n</stdin>`);
  });

  it("the same in JSON mode, with the prompt given after the options", async () => {
    const { box, server, env } = await setup();
    const result = await runPanto([...BASE, "--json", "review", "this"], {
      cwd: box.project,
      env,
      input: DIFF,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ type: "done", exit_code: 0 });
    expect(sentPrompt(server)).toBe(`review this\n\n<stdin>\n${DIFF.trimEnd()}\n</stdin>`);
  });

  it("empty piped stdin adds nothing; stdin alone is still the prompt", async () => {
    const { box, server, env } = await setup();
    expect((await runPanto([...BASE, "-p", "just this"], { cwd: box.project, env, input: "\n" })).code).toBe(
      0,
    );
    expect(sentPrompt(server)).toBe("just this");
    const { box: other, server: second, env: otherEnv } = await setup();
    expect(
      (await runPanto([...BASE, "-p"], { cwd: other.project, env: otherEnv, input: "from stdin\n" })).code,
    ).toBe(0);
    expect(sentPrompt(second)).toBe("from stdin");
  });

  it("piped input beside a slash command is refused, not dropped", async () => {
    const { box, server, env } = await setup();
    const result = await runPanto([...BASE, "-p", "/compact"], { cwd: box.project, env, input: DIFF });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("/compact is a command and takes no piped input");
    expect(server.requests).toHaveLength(0);
  });

  it("a pipe left open says it is waiting, then sends what finally comes", async () => {
    const { box, server, env } = await setup();
    const result = await runPanto([...BASE, "-p", "late input"], {
      cwd: box.project,
      env,
      keepStdinOpen: true,
      onSpawn: (child, output) => {
        const poll = setInterval(() => {
          if (!output.stderr().includes("waiting for stdin to end")) return;
          clearInterval(poll);
          child.stdin?.end("arrived at last\n");
        }, 50);
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("give </dev/null to send nothing from it");
    expect(sentPrompt(server)).toBe("late input\n\n<stdin>\narrived at last\n</stdin>");
  });

  it("@path in print and JSON modes attaches the file as the terminal does", async () => {
    const { box, server, env } = await setup();
    await writeFile(join(box.project, "README.md"), "# Widget\nIt frobs.\n");
    const printed = await runPanto([...BASE, "-p", "explain @README.md"], { cwd: box.project, env });
    expect(printed.code, printed.stderr).toBe(0);
    expect(sentPrompt(server)).toBe(
      'explain @README.md\n\n<file path="README.md">\n# Widget\nIt frobs.\n\n</file>',
    );
    const json = await runPanto([...BASE, "--json", "-p", "explain @README.md"], { cwd: box.project, env });
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.stringify(server.requests[1]?.body);
    expect(body).toContain('<file path=\\"README.md\\">\\n# Widget\\nIt frobs.');
  });

  it("@path to a missing file is an error naming it, exit 2, nothing sent (JSON: an error event)", async () => {
    const { box, server, env } = await setup();
    const printed = await runPanto([...BASE, "-p", "explain @nope.md"], { cwd: box.project, env });
    expect(printed.code).toBe(2);
    expect(printed.stderr).toContain(
      `@nope.md: no such file (${join(box.project, "nope.md")}); nothing was sent`,
    );
    const json = await runPanto([...BASE, "--json", "-p", "explain @nope.md"], { cwd: box.project, env });
    expect(json.code).toBe(2);
    const events = jsonLines(json.stdout);
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "usage" });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 2 });
    expect(server.requests).toHaveLength(0);
  });
});
