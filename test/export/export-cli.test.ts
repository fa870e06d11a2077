import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { sessionDirectory } from "../../src/session/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { CLI_PATH, cliEnv, runCli, tempProject } from "../e2e/run-cli.js";

const TRACE_IMPORTS = fileURLToPath(new URL("../cli/fixtures/trace-imports.mjs", import.meta.url));

const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const header = (id: string) =>
  `${JSON.stringify({ type: "session", version: 1, id, created: "2026-01-01T00:00:00Z", cwd: "/p" })}\n`;

async function projectWithSessions(ids: string[]) {
  const { home, project } = await tempProject();
  const directory = sessionDirectory(home, project);
  await mkdir(directory, { recursive: true });
  for (const [index, id] of ids.entries())
    await writeFile(
      join(directory, `2026-01-0${index + 1}T00-00-00.000Z_${id.slice(0, 8)}.jsonl`),
      header(id),
    );
  return { home, project, env: cliEnv(home) };
}

describe("panto export", () => {
  it("is loaded only when it runs: --help imports neither the exporter nor markdown-it, an HTML export both", async () => {
    const t = await projectWithSessions(["lazy-1"]);
    const { spawnSync } = await import("node:child_process");
    const importsOf = (args: string[]) =>
      spawnSync(process.execPath, ["--import", TRACE_IMPORTS, CLI_PATH, ...args], {
        cwd: t.project,
        env: t.env,
        encoding: "utf8",
      })
        .stderr.split("\n")
        .filter((line) => line.startsWith("IMPORT ") && /markdown-it|dist\/export\//.test(line));
    expect(importsOf(["--help"])).toEqual([]);
    const exporting = importsOf(["export", "-o", "-"]);
    expect(exporting.some((line) => line.includes("markdown-it"))).toBe(true);
    expect(exporting.some((line) => line.includes("dist/export/"))).toBe(true);
  });

  it("resolves an id prefix among this project's sessions and writes <session name>.html beside the session, not into the project", async () => {
    const t = await projectWithSessions(["aaaa1111-x", "bbbb2222-y"]);
    const result = await runCli(["export", "bbbb"], { cwd: t.project, env: t.env });
    expect(result.code, result.stderr).toBe(0);
    expect((await readdir(t.project)).filter((name) => name.endsWith(".html"))).toEqual([]);
    const directory = sessionDirectory(t.home, t.project);
    const written = (await readdir(directory)).filter((name) => name.endsWith(".html"));
    expect(written).toEqual(["2026-01-02T00-00-00.000Z_bbbb2222.html"]);
    expect(result.stdout).toContain(`to ${join(directory, written[0] as string)}`);
    expect(await readFile(join(directory, written[0] as string), "utf8")).toContain(
      "panto session bbbb2222-y",
    );
  });

  it("exits 2 naming the matches when a prefix is ambiguous, and naming the folder when nothing matches", async () => {
    const t = await projectWithSessions(["abcd1111", "abcd2222"]);
    const ambiguous = await runCli(["export", "abcd"], { cwd: t.project, env: t.env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('"abcd" matches 2 sessions');
    expect(ambiguous.stderr).toContain("abcd2222.jsonl");
    const missing = await runCli(["export", "zzzz"], { cwd: t.project, env: t.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no session id or file name starts with "zzzz"');
    const badFormat = await runCli(["export", "--format", "pdf"], { cwd: t.project, env: t.env });
    expect(badFormat.code).toBe(2);
  });

  it("writes the latest session to stdout with -o -, as Markdown or JSON lines", async () => {
    const t = await projectWithSessions(["first-1", "second-2"]);
    const markdown = await runCli(["export", "-o", "-", "--format", "md"], { cwd: t.project, env: t.env });
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toMatch(/^# panto session second-2\n/);
    const json = await runCli(["export", "first", "-o", "-", "--format", "json"], {
      cwd: t.project,
      env: t.env,
    });
    expect(JSON.parse(json.stdout.trim())).toEqual({
      line: 1,
      header: expect.objectContaining({ id: "first-1" }),
    });
  });

  it("/export as the -p prompt writes the current session to the named file", async () => {
    const server = await startFakeAnthropicServer();
    servers.push(server);
    const { home, project } = await tempProject();
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url });
    const session = join(project, "s.jsonl");
    server.enqueue({ type: "text", text: "hello **there**" });
    const base = ["-m", "anthropic/claude-x", "--session", session];
    expect((await runCli([...base, "-p", "hi"], { cwd: project, env })).code).toBe(0);
    const result = await runCli([...base, "-p", "/export out.md"], { cwd: project, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(join(project, "out.md"));
    const text = await readFile(join(project, "out.md"), "utf8");
    expect(text).toContain("hello **there**");
    expect(text).toContain("in the effective context");
  });
});
