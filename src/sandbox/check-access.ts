import path from "node:path";
import { isWithin, realpathForCreate, realpathOrUndefined } from "./path-state.js";
import { SandboxRefusal } from "./sandbox-error.js";
import { isWritable, type PathRule, ruleFor, type SandboxLayout } from "./sandbox-layout.js";

/** What a file tool is about to do with a path. */
export type AccessIntent = "read" | "write";

/**
 * The in-process tools' half of the sandbox: where `viewPath` (absolute, as commands see it) is on
 * this machine, if the layout lets a tool `intent` it; else a SandboxRefusal naming the rule. Both
 * the path as written and where its symlinks lead must be allowed (for a new file, where its
 * deepest existing folder leads), so a symlink out of the workspace or into a credential folder is
 * refused as the shell would be. Returns the real path: the tool works on it, not on the name.
 */
export function checkAccess(
  layout: SandboxLayout,
  viewPath: string,
  intent: AccessIntent,
  shown: string,
): string {
  const host = hostPathOf(layout, path.resolve(viewPath));
  const real = (intent === "read" ? realpathOrUndefined(host) : undefined) ?? realpathForCreate(host) ?? host;
  for (const candidate of new Set([host, real])) {
    const refusal = refusalFor(layout, ruleFor(layout.rules, candidate, layout.policy.git), intent, shown);
    if (refusal !== undefined) throw refusal;
  }
  return real;
}

/**
 * The rule check alone, on a host path whose symlinks are already resolved: where the kernel says
 * an opened descriptor is (see held-file.ts). A SandboxRefusal naming the rule when `intent` is not
 * allowed there, saying the path led there only once opened (the check before passed).
 */
export function checkHostPath(
  layout: SandboxLayout,
  hostPath: string,
  intent: AccessIntent,
  shown: string,
): void {
  const refusal = refusalFor(layout, ruleFor(layout.rules, hostPath, layout.policy.git), intent, shown);
  if (refusal === undefined) return;
  throw new SandboxRefusal(
    refusal.rule,
    `${refusal.message} (${shown} led to ${hostPath} when opened: it changed after the check, and nothing was read or written there)`,
  );
}

/**
 * Where a path commands see is on this machine: the same path, except inside the private
 * temporary folder's view (bubblewrap mounts it on /tmp), where a folder mounted at its own path
 * (a project under /tmp) still is itself.
 */
export function hostPathOf(layout: SandboxLayout, viewPath: string): string {
  const { tmp } = layout.policy;
  if (tmp.view === tmp.host || !isWithin(viewPath, tmp.view)) return viewPath;
  const mountedInside = layout.rules.some(
    (rule) =>
      rule.kind !== "private-tmp" &&
      rule.path !== tmp.view &&
      isWithin(rule.path, tmp.view) &&
      isWithin(viewPath, rule.path),
  );
  return mountedInside ? viewPath : path.join(tmp.host, path.relative(tmp.view, viewPath));
}

/** How commands see a path of this machine (the reverse of hostPathOf), for showing it to the model. */
export function viewPathOf(layout: SandboxLayout, hostPath: string): string {
  const { tmp } = layout.policy;
  if (tmp.view === tmp.host || !isWithin(hostPath, tmp.host)) return hostPath;
  return path.join(tmp.view, path.relative(tmp.host, hostPath));
}

function refusalFor(
  layout: SandboxLayout,
  rule: PathRule,
  intent: AccessIntent,
  shown: string,
): SandboxRefusal | undefined {
  const where = rule.path === "/" ? "" : ` (${rule.path}: ${rule.reason})`;
  switch (rule.kind) {
    case "hidden":
      return new SandboxRefusal(
        "hidden-credentials",
        `${shown}: refused by the sandbox, rule hidden-credentials${where}: credentials stay hidden from the model's commands and file tools`,
      );
    case "concealed":
      return new SandboxRefusal(
        "outside-sandbox",
        `${shown}: refused by the sandbox, rule outside-sandbox${where}: commands see an empty folder there`,
      );
    case "protected":
      return intent === "read"
        ? undefined
        : new SandboxRefusal(
            "protected-path",
            `${shown}: refused by the sandbox, rule protected-path${where}: it stays read-only even inside a writable folder, since it could run code outside the sandbox later. ${ESCAPE_HINT}`,
          );
    default:
      if (intent === "read" || isWritable(rule.kind)) return undefined;
      return new SandboxRefusal(
        "outside-writable-roots",
        `${shown}: refused by the sandbox, rule outside-writable-roots: in mode ${layout.policy.mode} only ${writableList(layout)} may be written. ${ESCAPE_HINT}`,
      );
  }
}

const ESCAPE_HINT =
  "If the task needs it, run the command with bash and unsandboxed_reason set (the user is asked), or ask the user.";

function writableList(layout: SandboxLayout): string {
  const { policy } = layout;
  return [...policy.writableRoots, `the private temporary folder ${policy.tmp.view}`].join(", ");
}
