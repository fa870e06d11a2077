import { glob } from "tinyglobby";

/** Directories never searched: dependencies and VCS internals drown real results. */
export const IGNORED_DIRECTORIES = ["node_modules", ".git"] as const;

/** Absolute paths of the files under `base` matching `pattern`, dotfiles included, ignored directories skipped. */
export function findFiles(pattern: string, base: string): Promise<string[]> {
  return glob(pattern, {
    cwd: base,
    absolute: true,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: IGNORED_DIRECTORIES.map((name) => `**/${name}/**`),
  });
}
