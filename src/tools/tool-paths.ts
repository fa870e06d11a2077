import os from "node:os";
import path from "node:path";
import { type AccessIntent, checkAccess, viewPathOf } from "../sandbox/check-access.js";
import type { SandboxLayout } from "../sandbox/sandbox-layout.js";
import type { FileAccess } from "./file-access.js";
import type { ToolContext } from "./tool.js";

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

/**
 * The file a tool call names, for `intent`: in a sandbox, checked against its rules first (a
 * refusal is thrown, naming the rule) and `absolute` is where the path really leads on this
 * machine; without one, as toolTarget.
 */
export function accessTarget(
  context: ToolContext,
  given: string,
  intent: AccessIntent,
): { absolute: string; shown: string; layout?: SandboxLayout } {
  const target = toolTarget(context.cwd, given);
  if (context.sandbox === undefined) return target;
  const layout = context.sandbox.layout();
  return { ...target, absolute: checkAccess(layout, target.absolute, intent, target.shown), layout };
}

/**
 * A path a tool found on this machine (glob, grep) as the model should see it: as commands see it
 * (the private temporary folder under /tmp), relative to `cwd` when inside it.
 */
export function foundPath(cwd: string, absolute: string, layout: SandboxLayout | undefined): string {
  return displayPath(cwd, layout === undefined ? absolute : viewPathOf(layout, absolute));
}

/**
 * The front-end's file access (an editor's buffers over ACP) a call may use: none in a sandbox.
 * There the editor, another process, would resolve the path itself, and nothing of ours can hold
 * that lookup to the policy: a folder swapped for a symlink between the check and the editor's read
 * or write would let it read or write anywhere the user can. So sandboxed calls use the local
 * files, each held by its verified descriptor (openHeldFile); the editor still gets every change as
 * the call's diff.
 */
export function frontEndFiles(context: ToolContext): FileAccess | undefined {
  return context.sandbox === undefined ? context.files : undefined;
}
