import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The layers of docs/ARCHITECTURE.md, checked on the source's own imports. The folders are read
// from the tree, so a folder added under src/ or src/frontends/ is checked without editing this
// file: every front-end folder is kept apart from the others, and every top-level folder not
// named below as above the runtime is held to the rules of the layers under it.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folders directly inside `folder` (repository paths). */
function foldersIn(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => posix.join(folder, entry.name))
    .sort();
}

/** What the front-ends share: no front-end itself, and it imports none. */
const SHARED = "src/frontends/shared";
/** Each folder of src/frontends but `shared` is one front-end: only input and rendering. */
const FRONT_ENDS = foldersIn("src/frontends").filter((folder) => folder !== SHARED);
/** The entry, its options, `--help` and the subcommands; it reaches a front-end only to start it. */
const ENTRY = "src/cli";
/** The program API: only the package entry reaches it, so the CLI never loads it. */
const API = "src/api";
/** What the API may use of src/frontends: JSON mode's events and what the front-ends share. */
const API_MAY_USE = ["src/frontends/json", SHARED];
/** What every front-end shares: a run's setup, the commands, the one way in for input. */
const RUNTIME = "src/runtime";
/**
 * The top-level folders above the runtime. Every other folder of src/ is a layer under it, which
 * imports neither it nor anything above it: a new folder meant to stand higher is named here.
 */
const ABOVE_RUNTIME = {
  "src/frontends": "the front-ends",
  [ENTRY]: "the command line's entry and subcommands",
  "src/bench": "the benchmarks (npm run bench), which drive the CLI and the runtime",
  [API]: "the program API (createPanto), a front-end for programs reporting JSON mode's events",
} as const;
const BELOW_RUNTIME = foldersIn("src").filter((folder) => folder !== RUNTIME && !(folder in ABOVE_RUNTIME));
/** Where the CLI may reach into src/frontends besides a front-end's start (its run-*.ts). */
const ENTRY_MAY_USE = [SHARED, "src/frontends/terminal/toolkit"];
/** Pure layers: they import only src/core. */
const CORE_ONLY = ["src/compaction", "src/session"];
/** The model vendors' SDKs, which only the provider adapters import. */
const VENDOR_SDKS = ["openai", "@anthropic-ai/sdk", "@google/genai"];
const PROVIDERS = "src/providers";

function sourceFiles(folder: string): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => posix.join(folder, file.split("\\").join("/")));
}

/** The specifiers a source file imports: static, type-only, `export ... from` and `import()`. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"([^"]+)"/g)].map((match) => match[1] ?? "");
}

/** The repository paths a source file imports, relative imports only. */
function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((specifier) => specifier.startsWith("./") || specifier.startsWith("../"))
    .map((specifier) => posix.normalize(posix.join(dirname(file), specifier)).replace(/\.js$/, ".ts"));
}

/** The packages a source file imports (node: built-ins left out). */
function packagesOf(file: string): string[] {
  return specifiersOf(file)
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map((specifier) => {
      const parts = specifier.split("/");
      return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
    });
}

const within = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/** Every import from a file under one of `from` that `forbidden` refuses, as "file -> target". */
function crossings(from: readonly string[], forbidden: (file: string, target: string) => boolean): string[] {
  return from.flatMap((folder) =>
    sourceFiles(folder).flatMap((file) =>
      importsOf(file)
        .filter((target) => forbidden(file, target))
        .map((target) => `${file} -> ${target}`),
    ),
  );
}

const aboveRuntime = (target: string): boolean =>
  Object.keys(ABOVE_RUNTIME).some((folder) => within(target, folder));

describe("the layers", () => {
  it("reads the folders and imports it checks from the tree", () => {
    expect(FRONT_ENDS).toEqual(
      expect.arrayContaining([
        "src/frontends/acp",
        "src/frontends/json",
        "src/frontends/print",
        "src/frontends/terminal",
      ]),
    );
    expect(BELOW_RUNTIME).toEqual(
      expect.arrayContaining(["src/agent", "src/core", "src/providers", "src/session"]),
    );
    expect(importsOf("src/frontends/shared/with-run.ts")).toContain("src/runtime/start-run.ts");
    expect(importsOf("src/cli/run-cli.ts")).toContain("src/frontends/json/run-json.ts");
    expect(packagesOf("src/providers/openai-chat/openai-sdk.ts")).toContain("openai");
  });

  it("places every top-level folder of src/ in a layer: above the runtime by name, else under it", () => {
    const named = Object.keys(ABOVE_RUNTIME).filter((folder) => !existsSync(join(ROOT, folder)));
    expect(named, "a folder named in ABOVE_RUNTIME no longer exists: take it out of the list").toEqual([]);
    for (const folder of BELOW_RUNTIME)
      expect(sourceFiles(folder).length, `${folder} holds TypeScript files`).toBeGreaterThan(0);
  });

  it("keeps the front-ends apart: each imports only itself, src/frontends/shared and the layers under it", () => {
    const problems = crossings(FRONT_ENDS, (file, target) => {
      const own = FRONT_ENDS.find((folder) => within(file, folder)) ?? "";
      return (
        (within(target, "src/frontends") && !within(target, own) && !within(target, SHARED)) ||
        within(target, ENTRY)
      );
    });
    expect(
      problems,
      "a front-end reaches another or the CLI: move what they share to src/frontends/shared",
    ).toEqual([]);
  });

  it("keeps src/frontends/shared under every front-end: it imports none of them, nor the CLI", () => {
    expect(sourceFiles(SHARED).length).toBeGreaterThan(0);
    const problems = crossings([SHARED], (_file, target) => aboveRuntime(target) && !within(target, SHARED));
    expect(problems).toEqual([]);
  });

  it("lets the CLI reach a front-end only to start it (its run-*.ts), besides what the front-ends share and the terminal's toolkit", () => {
    const start = (target: string): boolean =>
      FRONT_ENDS.some((folder) => dirname(target) === folder && posix.basename(target).startsWith("run-"));
    const problems = crossings([ENTRY], (_file, target) => {
      if (!within(target, "src/frontends") || start(target)) return false;
      return !ENTRY_MAY_USE.some((folder) => within(target, folder));
    });
    expect(problems).toEqual([]);
  });

  it("lets only the package entry import the program API, and the API only JSON mode and the shared front-end parts", () => {
    expect(sourceFiles(API).length).toBeGreaterThan(0);
    const everywhere = foldersIn("src").filter((folder) => folder !== API);
    expect(
      crossings(everywhere, (_file, target) => within(target, API)),
      "the CLI and the front-ends must not load the API (panto -p start-up)",
    ).toEqual([]);
    expect(importsOf("src/index.ts").filter((target) => within(target, API)).length).toBeGreaterThan(0);
    const reached = crossings(
      [API],
      (_file, target) =>
        within(target, ENTRY) ||
        (within(target, "src/frontends") && !API_MAY_USE.some((folder) => within(target, folder))),
    );
    expect(reached).toEqual([]);
  });

  it("keeps the runtime below every front-end: src/runtime imports nothing above it", () => {
    expect(sourceFiles(RUNTIME).length).toBeGreaterThan(0);
    expect(crossings([RUNTIME], (_file, target) => aboveRuntime(target))).toEqual([]);
  });

  it("keeps the layers under the runtime free of it and of everything above it", () => {
    const problems = crossings(
      BELOW_RUNTIME,
      (_file, target) => within(target, RUNTIME) || aboveRuntime(target),
    );
    expect(
      problems,
      "a folder under src/ imports the runtime or above: if it belongs above the runtime, name it in ABOVE_RUNTIME",
    ).toEqual([]);
  });

  it("keeps compaction and session pure: they import only src/core", () => {
    const problems = crossings(CORE_ONLY, (file, target) => {
      const own = CORE_ONLY.find((folder) => within(file, folder)) ?? "";
      return !within(target, own) && !within(target, "src/core");
    });
    expect(problems).toEqual([]);
  });

  it("lets only the provider adapters import the model vendors' SDKs", () => {
    const adapters = sourceFiles(PROVIDERS).flatMap(packagesOf);
    for (const sdk of VENDOR_SDKS) expect(adapters, `${PROVIDERS} imports ${sdk}`).toContain(sdk);
    const others = foldersIn("src")
      .filter((folder) => folder !== PROVIDERS)
      .flatMap(sourceFiles)
      .flatMap((file) =>
        packagesOf(file)
          .filter((name) => VENDOR_SDKS.includes(name))
          .map((name) => `${file} -> ${name}`),
      );
    expect(others).toEqual([]);
  });
});
