import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The layers of docs/ARCHITECTURE.md, checked on the source's own imports: front-ends hold only
// input and rendering, so they never reach into each other, and what they share (src/runtime)
// never reaches up into any of them.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The front-ends: each folder is one, and none imports another. */
const FRONT_ENDS = ["src/cli/interactive", "src/cli/print", "src/cli/json", "src/acp"];
/** Everything above the runtime: the CLI (its front-ends among it) and the editor protocol. */
const ABOVE_RUNTIME = ["src/cli", "src/acp"];
/** The layers under the runtime, which import neither it nor anything above it. */
const BELOW_RUNTIME = [
  "src/agent",
  "src/compaction",
  "src/session",
  "src/providers",
  "src/tools",
  "src/config",
  "src/mcp",
  "src/export",
  "src/fidelity",
  "src/secrets",
  "src/hooks",
  "src/recall",
  "src/handoff",
  "src/custom-commands",
  "src/skills",
  "src/subagents",
  "src/todos",
  "src/permissions",
  "src/core",
];

function sourceFiles(folder: string): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => posix.join(folder, file.split("\\").join("/")));
}

/** The repository paths a source file imports (static, `export ... from` and `import()`), relative ones only. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"(\.{1,2}\/[^"]+)"/g)].map(
    (match) => match[1] ?? "",
  );
  return specifiers.map((specifier) =>
    posix.normalize(posix.join(dirname(file), specifier)).replace(/\.js$/, ".ts"),
  );
}

const within = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/** Every import from a file under one of `from` to a file under one of `to`, as "file -> target". */
function crossings(from: readonly string[], to: (importer: string) => readonly string[]): string[] {
  return from.flatMap((folder) =>
    sourceFiles(folder).flatMap((file) =>
      importsOf(file)
        .filter((target) => to(file).some((forbidden) => within(target, forbidden)))
        .map((target) => `${file} -> ${target}`),
    ),
  );
}

describe("the layers", () => {
  it("reads the imports it checks: a front-end reaches the runtime's run setup", () => {
    expect(importsOf("src/cli/interactive/run-interactive.ts")).toContain("src/runtime/start-run.ts");
    expect(importsOf("src/cli/run-cli.ts")).toContain("src/cli/json/run-json.ts");
  });

  it("keeps the front-end folders apart: none imports another", () => {
    const existing = FRONT_ENDS.filter((folder) => existsSync(join(ROOT, folder)));
    expect(existing.length).toBeGreaterThanOrEqual(3);
    expect(crossings(existing, (file) => existing.filter((folder) => !within(file, folder)))).toEqual([]);
  });

  it("keeps the runtime below every front-end: src/runtime imports nothing from src/cli or src/acp", () => {
    expect(sourceFiles("src/runtime").length).toBeGreaterThan(0);
    expect(crossings(["src/runtime"], () => ABOVE_RUNTIME)).toEqual([]);
  });

  it("keeps the layers under the runtime free of it and of the front-ends", () => {
    expect(crossings(BELOW_RUNTIME, () => ["src/runtime", ...ABOVE_RUNTIME])).toEqual([]);
  });
});
