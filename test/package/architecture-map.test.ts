import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// docs/ARCHITECTURE.md maps each spec rule to the code that keeps it and the test that pins it.
// These checks keep the map true as code moves: a renamed file, function or test title fails here.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAP = readFileSync(join(ROOT, "docs/ARCHITECTURE.md"), "utf8");

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" }).map((file) =>
    join(folder, file),
  );
}

const SOURCE_FILES = filesUnder("src").filter((file) => file.endsWith(".ts"));
const SOURCE_TEXT = SOURCE_FILES.map((file) => readFileSync(join(ROOT, file), "utf8")).join("\n");

/** Backticked spans of a piece of Markdown. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "");
}

/** The rows of the table under `heading`, as their cells. */
function tableRows(heading: string): string[][] {
  const start = MAP.indexOf(heading);
  expect(start, `ARCHITECTURE.md has the section "${heading}"`).toBeGreaterThan(-1);
  const lines = MAP.slice(start).split("\n").slice(1);
  const rows: string[][] = [];
  for (const line of lines) {
    if (line.startsWith("## ")) break;
    if (!line.startsWith("| ") || line.startsWith("| ---")) continue;
    rows.push(line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, "")));
  }
  return rows.slice(1);
}

/**
 * Whether a path written in the map names real files. It may have a `*` in its file name, and a
 * `<placeholder>` folder, which stands for every folder beside it but `shared` (each must hold a match).
 */
function pathExists(path: string): boolean {
  const placeholder = /^(.*?)\/<[^>]+>\/(.*)$/.exec(path);
  if (placeholder !== null) {
    const [, parent = "", rest = ""] = placeholder;
    const folders = readdirSync(join(ROOT, parent), { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    const real = folders.filter((entry) => entry.name !== "shared");
    return real.length > 0 && real.every((entry) => pathExists(`${parent}/${entry.name}/${rest}`));
  }
  if (!path.includes("*")) return existsSync(join(ROOT, path));
  const pattern = new RegExp(`^${basename(path).replaceAll(".", "\\.").replaceAll("*", ".*")}$`);
  const folder = join(ROOT, dirname(path));
  return existsSync(folder) && readdirSync(folder).some((name) => pattern.test(name));
}

describe("docs/ARCHITECTURE.md", () => {
  it("names only files that exist: paths from the repository root, bare names somewhere under src", () => {
    const missing: string[] = [];
    for (const span of codeSpans(MAP)) {
      if (/^(src|test|docs|scripts)\/\S+$/.test(span)) {
        if (!pathExists(span.replace(/\/$/, ""))) missing.push(span);
      } else if (/^[\w.-]+\.ts$/.test(span)) {
        if (!SOURCE_FILES.some((file) => basename(file) === span)) missing.push(span);
      }
    }
    expect(missing).toEqual([]);
  });

  it("maps each of the spec's eight rules to at least one source file and one test file", () => {
    const rows = tableRows("## The spec's rules, where they are kept and tested");
    expect(rows.map((row) => Number.parseInt(row[0] ?? "", 10))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const [rule, keptIn = "", pinnedBy = ""] of rows) {
      expect(
        codeSpans(keptIn).filter((span) => span.startsWith("src/")),
        `rule ${rule}`,
      ).not.toEqual([]);
      expect(
        codeSpans(pinnedBy).filter((span) => span.startsWith("test/")),
        `rule ${rule}`,
      ).not.toEqual([]);
    }
  });

  it("names functions that exist in the source, and quotes test titles found in the tests it names", () => {
    const rows = [
      ...tableRows("## The spec's rules, where they are kept and tested"),
      ...tableRows("## DESIGN decisions that extend the rules"),
    ];
    const problems: string[] = [];
    for (const [what = "", keptIn = "", pinnedBy = ""] of rows) {
      for (const span of codeSpans(keptIn)) {
        const name = /^(?:\w+\.)?#?([a-z]\w+)$/.exec(span)?.[1];
        if (name !== undefined && !new RegExp(`\\b${name}\\b`).test(SOURCE_TEXT))
          problems.push(`${what}: ${span} is not in src`);
      }
      const testFiles = codeSpans(pinnedBy).filter((span) => /^test\/[^*]+\.ts$/.test(span));
      const testText = testFiles.map((file) => readFileSync(join(ROOT, file), "utf8")).join("\n");
      for (const quoted of pinnedBy.matchAll(/"([^"]+)"/g)) {
        for (const fragment of (quoted[1] ?? "").split("...").filter((part) => part.trim().length > 0))
          if (!testText.includes(fragment.trim()))
            problems.push(`${what}: test title "${fragment}" not found`);
      }
    }
    expect(problems).toEqual([]);
  });
});
