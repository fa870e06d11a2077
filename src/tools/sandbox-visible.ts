import { checkAccess, viewPathOf } from "../sandbox/check-access.js";
import { ruleFor, type SandboxLayout } from "../sandbox/sandbox-layout.js";

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
  if (layout === undefined) return [...files];
  return files.filter((file) => {
    if (what === "names") {
      const kind = ruleFor(layout.rules, file).kind;
      return kind !== "hidden" && kind !== "concealed";
    }
    try {
      checkAccess(layout, viewPathOf(layout, file), "read", file);
      return true;
    } catch {
      return false;
    }
  });
}
