import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BASE_COMPACTION_PROMPT_PATH,
  type CompactionPromptLayer,
  resolveCompactionPrompt,
} from "../../src/compaction/index.js";
import { PantoError } from "../../src/core/index.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-compaction-prompt-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Reads a file the way the caller does: content, or the read error. */
async function layer(source: CompactionPromptLayer["source"], path: string): Promise<CompactionPromptLayer> {
  try {
    return { source, path, content: await readFile(path, "utf8") };
  } catch (error) {
    return { source, path, error: error as Error };
  }
}

function thrown(run: () => unknown): PantoError {
  try {
    run();
  } catch (error) {
    if (error instanceof PantoError) return error;
    throw error;
  }
  throw new Error("expected a PantoError");
}

describe("resolveCompactionPrompt", () => {
  it("lets the last layer win whole: base, then user, then project", async () => {
    const user = join(dir, "user.md");
    const project = join(dir, "project.md");
    await writeFile(user, "USER PROMPT");
    await writeFile(project, "PROJECT PROMPT");
    const base = await layer("base", BASE_COMPACTION_PROMPT_PATH);
    expect(resolveCompactionPrompt([base])).toMatchObject({
      source: "base",
      path: BASE_COMPACTION_PROMPT_PATH,
    });
    expect(resolveCompactionPrompt([base, await layer("user", user)])).toEqual({
      prompt: "USER PROMPT",
      source: "user",
      path: user,
    });
    expect(
      resolveCompactionPrompt([base, await layer("user", user), await layer("project", project)]),
    ).toEqual({ prompt: "PROJECT PROMPT", source: "project", path: project });
  });

  it("rejects an empty override with an error naming the file, even when a later layer would win", async () => {
    const empty = join(dir, "COMPACTION.md");
    await writeFile(empty, " \n\t\n");
    const error = thrown(() =>
      resolveCompactionPrompt([
        { source: "base", path: "base.md", content: "BASE" },
        { source: "user", path: empty, content: " \n\t\n" },
        { source: "project", path: "p.md", content: "PROJECT" },
      ]),
    );
    expect(error.code).toBe("invalid_request");
    expect(error.message).toBe(`${empty}: COMPACTION.md override is empty`);
  });

  it("rejects an unreadable override with an error naming the file and the reason", async () => {
    // A directory where the file should be: reading it fails with EISDIR.
    const unreadable = await layer("project", dir);
    const error = thrown(() =>
      resolveCompactionPrompt([{ source: "base", path: "base.md", content: "BASE" }, unreadable]),
    );
    expect(error.code).toBe("invalid_request");
    expect(error.message).toMatch(new RegExp(`^${dir}: COMPACTION.md override cannot be read: .*EISDIR`));
  });

  it("fails clearly when there is no layer at all", () => {
    expect(thrown(() => resolveCompactionPrompt([])).code).toBe("invalid_request");
  });
});

describe("the base COMPACTION.md shipped in the package", () => {
  it("exists at BASE_COMPACTION_PROMPT_PATH and covers what a coding-session summary must carry", async () => {
    expect(BASE_COMPACTION_PROMPT_PATH.endsWith(join("assets", "COMPACTION.md"))).toBe(true);
    const prompt = await readFile(BASE_COMPACTION_PROMPT_PATH, "utf8");
    for (const required of [
      "goal",
      "Constraints and preferences",
      "Done",
      "In progress",
      "Blocked",
      "Key decisions",
      "exact path",
      "Commands",
      "error messages",
      "Next steps",
      "<previous-summary>",
      "not a conversation for you to continue",
      "newer information",
    ]) {
      expect(prompt).toContain(required);
    }
  });
});
