import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { cliEnv, runCli, tempProject } from "../e2e/run-cli.js";
import type { Closable } from "./close-after-each.js";

/**
 * A project for the compaction CLI tests: a fake Anthropic server (handed to `closeAfter`), a
 * project config keeping no turn verbatim unless `config` says otherwise, and one session file.
 * `run` runs the built CLI once on it (`-m model --session … -p prompt`, plus `extra` arguments and
 * `runEnv`); `seed` runs each prompt to a scripted answer ("answer to PROMPT"), expecting success.
 */
export async function compactionCliProject(
  model: string,
  closeAfter: <T extends Closable>(thing: T) => T,
  config: Record<string, unknown> = {},
  extraEnv: Record<string, string> = {},
) {
  const server = closeAfter(await startFakeAnthropicServer());
  const { home, project } = await tempProject();
  await mkdir(join(project, ".panto"), { recursive: true });
  await writeFile(
    join(project, ".panto", "config.json"),
    JSON.stringify({ keep_verbatim_tokens: 0, ...config }),
  );
  const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url, ...extraEnv });
  const session = join(project, "s.jsonl");
  const run = (prompt: string, extra: string[] = [], runEnv: Record<string, string> = {}) =>
    runCli(["-m", model, "--session", session, ...extra, "-p", prompt], {
      cwd: project,
      env: { ...env, ...runEnv },
    });
  const seed = async (...prompts: string[]) => {
    for (const prompt of prompts) {
      server.enqueue({ type: "text", text: `answer to ${prompt}` });
      const result = await run(prompt);
      expect(result.code, result.stderr).toBe(0);
    }
  };
  return { server, home, project, env, session, run, seed };
}
