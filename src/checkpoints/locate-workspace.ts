import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { findProjectRoot } from "../config/index.js";
import { CheckpointError } from "./checkpoint-error.js";
import { runGit } from "./git-process.js";

/** The folder checkpoints cover, and the project's own repository when there is one (read only). */
export interface Workspace {
  /** Absolute, symbolic links resolved: the git work tree, else the project folder. */
  root: string;
  /** The project's git folder holding its objects and `info/exclude` (the common one for a worktree). */
  projectGitDir?: string;
  /** `core.excludesFile` as the project's git resolves it, when set. */
  excludesFile?: string;
}

async function projectRepository(cwd: string): Promise<{ root: string; commonDir: string } | undefined> {
  try {
    const { stdout } = await runGit({
      args: ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir"],
      cwd,
    });
    const [root, commonDir] = stdout.toString("utf8").trim().split("\n");
    if (root === undefined || commonDir === undefined || root === "") return undefined;
    return { root, commonDir };
  } catch (error) {
    if (error instanceof CheckpointError && error.gitMissing) throw error;
    // Not inside a work tree (no repository, a bare one, an unsafe owner): covered without one.
    return undefined;
  }
}

async function excludesFile(root: string): Promise<string | undefined> {
  const { stdout } = await runGit({
    args: ["config", "--path", "--get", "core.excludesFile"],
    cwd: root,
    okStatuses: [1],
  });
  const value = stdout.toString("utf8").trim();
  return value === "" ? undefined : value;
}

/**
 * Finds the workspace for `cwd`: the git work tree it is in (read with read-only git commands, never
 * written), else the project folder as panto finds it (`.panto/` or `.git` marker), else `cwd`.
 * Fails with a CheckpointError only when git cannot be started.
 */
export async function locateWorkspace(cwd: string, pantoHome?: string): Promise<Workspace> {
  const repository = await projectRepository(cwd);
  if (repository === undefined) {
    const found = findProjectRoot(cwd, pantoHome === undefined ? {} : { pantoHome });
    return { root: await realpath(found) };
  }
  const excludes = await excludesFile(repository.root);
  return {
    root: await realpath(repository.root),
    projectGitDir: repository.commonDir,
    ...(excludes === undefined ? {} : { excludesFile: excludes }),
  };
}

/** The project's `info/exclude`, whose patterns the checkpoint store copies. */
export function projectExcludePath(workspace: Workspace): string | undefined {
  return workspace.projectGitDir === undefined ? undefined : join(workspace.projectGitDir, "info", "exclude");
}
