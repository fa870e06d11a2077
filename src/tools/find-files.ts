import type { Dirent, readdir } from "node:fs";
import type { SandboxLayout } from "../sandbox/sandbox-layout.js";

/** Directories never searched: dependencies and VCS internals drown real results. */
export const IGNORED_DIRECTORIES = ["node_modules", ".git"] as const;

/**
 * Absolute paths of the files under `base` matching `pattern`, dotfiles included, ignored
 * directories skipped. In a sandbox (`layout`), every folder is listed through its verified
 * descriptor (readHeldFolder): a folder swapped for a symlink to a hidden one during the walk is
 * skipped, not listed.
 */
export async function findFiles(pattern: string, base: string, layout?: SandboxLayout): Promise<string[]> {
  // Loaded on the first glob or grep call, not at start-up.
  const { glob } = await import("tinyglobby");
  return await glob(pattern, {
    cwd: base,
    absolute: true,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: IGNORED_DIRECTORIES.map((name) => `**/${name}/**`),
    ...(layout === undefined ? {} : { fs: { readdir: heldReaddir(layout) } }),
  });
}

/** fs.readdir as the walker calls it (path, options, callback), through readHeldFolder. */
function heldReaddir(layout: SandboxLayout): typeof readdir {
  const list = (
    directory: string,
    _options: unknown,
    callback: (error: Error | null, entries: Dirent[]) => void,
  ) => {
    import("../sandbox/held-file.js")
      .then(({ readHeldFolder }) => readHeldFolder(layout, directory, directory))
      .then(
        (entries) => callback(null, entries),
        (error: Error) => callback(error, []),
      );
  };
  return list as unknown as typeof readdir;
}
