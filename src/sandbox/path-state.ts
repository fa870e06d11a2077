import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/** What is at a path, without following a symlink there. */
export type PathState =
  | { kind: "missing" }
  | { kind: "file" }
  | { kind: "directory" }
  | { kind: "symlink"; target: string };

/** The state of `absolute` now; an unreadable path counts as missing (it cannot be protected or used either). */
export function pathState(absolute: string): PathState {
  try {
    // Most paths checked do not exist: no exception for them (they cost far more than the call).
    const info = lstatSync(absolute, { throwIfNoEntry: false });
    if (info === undefined) return { kind: "missing" };
    if (info.isSymbolicLink()) return { kind: "symlink", target: readlinkSync(absolute) };
    return { kind: info.isDirectory() ? "directory" : "file" };
  } catch {
    return { kind: "missing" };
  }
}

/** Where a path leads with every symlink resolved; undefined when it leads nowhere. */
export function realpathOrUndefined(absolute: string): string | undefined {
  if (!existsSync(absolute)) return undefined;
  try {
    return realpathSync(absolute);
  } catch {
    return undefined;
  }
}

/** True when `child` is `parent` or inside it (both absolute and normalised). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent || parent === path.sep) return true;
  return child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/** How many names deep a normalised absolute path is ("/" is 0). */
export function pathDepth(absolute: string): number {
  return absolute.split(path.sep).filter((part) => part !== "").length;
}

/**
 * The path with every existing part's symlinks resolved and the missing rest appended: where a
 * write to `absolute` would land. A dangling symlink on the way is followed to where it points, as
 * creating a file through it would. Undefined for a symlink loop.
 */
export function realpathForCreate(absolute: string, hops = 0): string | undefined {
  if (hops > MAX_SYMLINK_HOPS) return undefined;
  const missing: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    const real = realpathOrUndefined(current);
    if (real !== undefined) return path.join(real, ...missing.reverse());
    const state = pathState(current);
    if (state.kind === "symlink") {
      const target = path.resolve(path.dirname(current), state.target);
      return realpathForCreate(path.join(target, ...missing.reverse()), hops + 1);
    }
    if (path.dirname(current) === current) return absolute;
    missing.push(path.basename(current));
  }
}

/** As the kernel's limit on symlinks followed in one lookup. */
const MAX_SYMLINK_HOPS = 40;
