import { checkAccess, viewPathOf } from "../sandbox/check-access.js";
import { ruleFor, type SandboxLayout } from "../sandbox/sandbox-layout.js";

/** A file a search found: where it was found (shown), and what to open (its real path in a sandbox). */
export interface FoundFile {
  file: string;
  open: string;
}

/**
 * The files a search found that the sandbox lets a tool show: with "names" (glob), those not in a
 * hidden or concealed folder; with "contents" (grep), those whose real path may be read, so a
 * symlink to a credential is skipped. All of them without a sandbox.
 */
export function visibleFiles(
  files: readonly string[],
  layout: SandboxLayout | undefined,
  what: "names" | "contents",
): string[] {
  if (what === "contents") return readableFiles(files, layout).map((found) => found.file);
  if (layout === undefined) return [...files];
  return files.filter((file) => {
    const kind = ruleFor(layout.rules, file).kind;
    return kind !== "hidden" && kind !== "concealed";
  });
}

/**
 * The files whose contents the sandbox lets a tool read, each with the real path to open (through
 * openToolFile, which checks again what it opened); all of them, as found, without a sandbox.
 */
export function readableFiles(files: readonly string[], layout: SandboxLayout | undefined): FoundFile[] {
  if (layout === undefined) return files.map((file) => ({ file, open: file }));
  return files.flatMap((file) => {
    try {
      return [{ file, open: checkAccess(layout, viewPathOf(layout, file), "read", file) }];
    } catch {
      return [];
    }
  });
}
