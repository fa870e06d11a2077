/** Directories never searched: dependencies and VCS internals drown real results. */
export const IGNORED_DIRECTORIES = ["node_modules", ".git"] as const;

/** Absolute paths of the files under `base` matching `pattern`, dotfiles included, ignored directories skipped. */
export async function findFiles(pattern: string, base: string): Promise<string[]> {
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
  });
}
