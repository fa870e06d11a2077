import os from "node:os";
import path from "node:path";

/** Resolves a path the model gave: `~` is the home directory, relative paths start at `cwd`. */
export function resolveToolPath(cwd: string, given: string): string {
  if (given === "~") return os.homedir();
  if (given.startsWith("~/")) return path.join(os.homedir(), given.slice(2));
  return path.resolve(cwd, given);
}

/** The path to show the model: relative to `cwd` when inside it (so it can be passed straight back), else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  if (relative === "") return ".";
  if (relative.startsWith("..") || path.isAbsolute(relative)) return absolute;
  return relative.split(path.sep).join("/");
}

/** The file a tool call names: where it is, and how to show it to the model. */
export function toolTarget(cwd: string, given: string): { absolute: string; shown: string } {
  const absolute = resolveToolPath(cwd, given);
  return { absolute, shown: displayPath(cwd, absolute) };
}
