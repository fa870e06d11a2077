import { coveringRule, isWritable, type PathRule, type SandboxLayout } from "./sandbox-layout.js";

/**
 * bubblewrap's arguments (before `--`) for one command: new user, PID, IPC (the host's shared
 * memory) and cgroup namespaces (and network, unless the network is on), no capabilities (so no
 * hostname to change, no mount to undo), no new privileges (bubblewrap always sets it), no user
 * namespaces inside, its own session, killed with its parent; then the layout's rules as mounts,
 * in order, so the deepest rule covering a path decides what a command sees there.
 */
export function bubblewrapArgs(layout: SandboxLayout, cwd: string): string[] {
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-user",
    "--disable-userns",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-cgroup-try",
    ...(layout.policy.network ? [] : ["--unshare-net"]),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
  ];
  const readOnlyAfter: string[] = [];
  layout.rules.forEach((rule, index) => {
    if (index === 0 && rule.path === "/") return;
    const parent = coveringRule(layout.rules, rule.path, index);
    args.push(...mountFor(rule, parent, layout, readOnlyAfter));
  });
  for (const target of readOnlyAfter) args.push("--remount-ro", target);
  args.push("--setenv", "TMPDIR", layout.policy.tmp.view, "--chdir", cwd);
  return args;
}

/**
 * The mount one rule needs, given the rule that covers its path before it; nothing when that rule
 * already has the same effect. Empty folders laid over a path are made read-only at the end, once
 * the mounts inside them are in place (`readOnlyAfter`).
 */
function mountFor(
  rule: PathRule,
  parent: PathRule,
  layout: SandboxLayout,
  readOnlyAfter: string[],
): string[] {
  const { tmp, sealedFile } = layout.policy;
  const hiddenAbove = parent.kind === "concealed" || parent.kind === "hidden";
  switch (rule.kind) {
    case "concealed":
      if (hiddenAbove) return [];
      if (rule.path === "/dev") return ["--dev", "/dev"];
      if (rule.path === "/proc") return ["--proc", "/proc"];
      if (rule.path === tmp.view) return ["--bind", tmp.host, tmp.view];
      readOnlyAfter.push(rule.path);
      return ["--tmpfs", rule.path];
    case "private-tmp":
      // Mounted where commands see it, with the concealed folder it replaces (tmp.view).
      return [];
    case "read-only":
      if (rule.link !== undefined) return ["--symlink", rule.link, rule.path];
      if (rule.present === undefined || parent.kind === "read-only") return [];
      return ["--ro-bind", rule.path, rule.path];
    case "writable":
      return ["--bind", rule.path, rule.path];
    case "protected":
      return rule.present !== undefined && isWritable(parent.kind) ? ["--ro-bind", rule.path, rule.path] : [];
    case "hidden":
      if (rule.present === undefined || hiddenAbove) return [];
      if (rule.present === "file") return ["--ro-bind", sealedFile, rule.path];
      readOnlyAfter.push(rule.path);
      return ["--perms", "0000", "--tmpfs", rule.path];
  }
}
