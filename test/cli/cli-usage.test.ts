import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonLines, makeSandbox, PANTO_MAIN, runPanto } from "./panto-process.js";

const TRACE_IMPORTS = fileURLToPath(new URL("./fixtures/trace-imports.mjs", import.meta.url));

describe("panto usage and configuration errors (built CLI)", { timeout: 60_000 }, () => {
  it("--help lists every flag and the slash commands, exits 0, and loads no provider SDK", async () => {
    const box = await makeSandbox();
    const { spawnSync } = await import("node:child_process");
    const result = spawnSync(process.execPath, ["--import", TRACE_IMPORTS, PANTO_MAIN, "--help"], {
      cwd: box.project,
      env: box.env,
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    for (const flag of [
      "--print",
      "--json",
      "--model",
      "--session",
      "--continue",
      "--allow-tools",
      "/compact",
    ]) {
      expect(result.stdout).toContain(flag);
    }
    const imports = result.stderr.split("\n").filter((line) => line.startsWith("IMPORT "));
    expect(imports.some((line) => line.includes("commander"))).toBe(true);
    expect(imports.filter((line) => /@anthropic-ai|node_modules\/openai|@google\/genai/.test(line))).toEqual(
      [],
    );
  });

  it("--version prints the package version", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["--version"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("exits 2 on an unknown flag", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["--no-such-flag", "-p", "hi"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--no-such-flag");
  });

  it("exits 2 naming the file and the key for an unknown config key", async () => {
    const box = await makeSandbox();
    const file = join(box.home, "config.json");
    await writeFile(file, JSON.stringify({ modle: "anthropic/claude-sonnet-4-5" }));
    const result = await runPanto(["-p", "hi"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain("modle");
  });

  it("exits 2 naming the project file and key for a wrong type", async () => {
    const box = await makeSandbox();
    await mkdir(join(box.project, ".panto"));
    const file = join(box.project, ".panto", "config.json");
    await writeFile(file, JSON.stringify({ model: "anthropic/x", keep_verbatim_tokens: "lots" }));
    const result = await runPanto(["-p", "hi"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain("keep_verbatim_tokens");
  });

  it("exits 2 with directions when no model is configured, suggesting panto demo", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["-p", "hi"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--model");
    expect(result.stderr).toContain("config.json");
    expect(result.stderr).toContain("panto demo");
  });

  it("exits 2 naming the variable when the API key is missing, and creates no session file", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["-m", "anthropic/claude-sonnet-4-5", "-p", "hi"], {
      cwd: box.project,
      env: box.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(existsSync(join(box.home, "sessions"))).toBe(false);
  });

  it("exits 2 for an unknown provider, and says so in a JSON error event ending with done", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["--json", "-m", "nosuch/model", "-p", "hi"], {
      cwd: box.project,
      env: box.env,
    });
    expect(result.code).toBe(2);
    const events = jsonLines(result.stdout);
    expect(events.map((event) => event.type)).toEqual(["error", "done"]);
    expect(events[0]).toMatchObject({ code: "invalid_request" });
    expect(String(events[0]?.message)).toContain("nosuch");
    expect(events[1]).toMatchObject({ type: "done", exit_code: 2 });
  });

  it("answers /help given as the -p prompt without needing a model", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["-p", "/help"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("/compact [--preview] [--force] [instructions]");
  });

  it("exits 2 when -p has no prompt and stdin is empty", async () => {
    const box = await makeSandbox();
    const result = await runPanto(["-m", "anthropic/x", "-p"], {
      cwd: box.project,
      env: { ...box.env, ANTHROPIC_API_KEY: "k" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("prompt is empty");
    expect(await readdir(box.home)).toEqual([]);
  });
});
