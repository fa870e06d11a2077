import path from "node:path";
import { gitControlReason } from "./git-control-files.js";
import { hooksFolderReason } from "./git-hooks-path.js";
import { isWithin, type PathState, pathDepth, pathState, realpathOrUndefined } from "./path-state.js";
import { protectionFor } from "./protected-paths.js";
import type { SandboxPolicy } from "./sandbox-policy.js";

/**
 * What a rule makes of a path and everything under it (unless a deeper rule says otherwise):
 * `read-only` visible, not writable; `concealed` replaced by an empty folder (the machine's /tmp,
 * /run, ... where sockets live, and /proc and /dev, which commands get their own of); `private-tmp`
 * the private temporary folder; `writable`; `protected` read-only inside a writable folder;
 * `hidden` a credential nobody in the sandbox may read.
 */
export type PathRuleKind = "read-only" | "concealed" | "private-tmp" | "writable" | "protected" | "hidden";

/** Equal paths: the later kind wins. */
const KIND_ORDER: readonly PathRuleKind[] = [
  "read-only",
  "concealed",
  "private-tmp",
  "writable",
  "protected",
  "hidden",
];

export interface PathRule {
  /** Absolute, normalised host path. */
  path: string;
  kind: PathRuleKind;
  /** What is at the path now when it can be mounted over; undefined when missing or a symlink. */
  present: "file" | "directory" | undefined;
  /** Why, in words (refusals and `panto sandbox` quote it). */
  reason: string;
  /** A symlink kept inside a concealed folder: recreated there pointing where it points. */
  link?: string;
}

/**
 * A protected or hidden path inside a writable folder that is missing or a symlink when a command
 * starts: no mount can keep it as it is, so it is compared after the command (see restoreWatched).
 */
export interface WatchedPath {
  path: string;
  before: Extract<PathState, { kind: "missing" } | { kind: "symlink" }>;
  reason: string;
}

/**
 * The policy resolved against the file system as it is now: one list of rules, shallowest first,
 * where the deepest rule covering a path decides (the later kind on equal paths). bubblewrap mounts
 * them in this order, the Seatbelt profile lists them in it (its last matching rule wins), and the
 * in-process tools look a path up in it.
 */
export interface SandboxLayout {
  policy: SandboxPolicy;
  rules: PathRule[];
  watched: WatchedPath[];
}

/** Resolves `policy` now (a few lstat calls): before every sandboxed command and file tool call. */
export function sandboxLayout(policy: SandboxPolicy): SandboxLayout {
  const rules: PathRule[] = [rule("/", "read-only", "directory", "outside the writable folders")];
  for (const concealed of policy.concealedPaths) {
    rules.push(rule(concealed, "concealed", "directory", "not visible inside the sandbox"));
  }
  rules.push(...exposedRules(policy.exposedPaths, sortRules(rules)));
  rules.push(rule(policy.tmp.host, "private-tmp", "directory", "the private temporary folder"));
  if (policy.mode === "read-only") {
    rules.push(rule(policy.projectRoot, "read-only", "directory", "the project, read-only in this mode"));
  }
  const protectedPaths: string[] = [];
  for (const root of policy.writableRoots) {
    rules.push(rule(root, "writable", "directory", "a writable folder"));
    const protection = protectionFor(root, policy.git);
    for (const directory of protection.gitDirectories) {
      rules.push(rule(directory, "writable", "directory", "the git directory of a writable folder"));
    }
    for (const pinned of protection.pinned) {
      rules.push(rule(pinned, "writable", "directory", "a git directory, kept in place"));
    }
    protectedPaths.push(...protection.protectedPaths);
  }
  const sorted = sortRules(rules);
  const watched: WatchedPath[] = [];
  const sealed = (absolute: string, kind: "protected" | "hidden", reason: string): PathRule[] =>
    sealPath(absolute, kind, reason, sorted, watched);
  const extra = [
    ...protectedPaths.flatMap((absolute) =>
      sealed(absolute, "protected", "protected inside a writable folder"),
    ),
    ...policy.hiddenPaths.flatMap((absolute) => sealed(absolute, "hidden", "a credential path")),
  ];
  return { policy, rules: sortRules([...sorted, ...extra]), watched };
}

/**
 * The rule for `absolute` (a host path, symlinks already resolved by the caller) for the file
 * tools: the deepest rule covering it, except that a git control file at any depth inside a
 * writable folder (see gitControlReason: a nested repository's config, a `.git` pointer file) is
 * protected, as the ones at the top of the folder are by their own rules; with `userGit`, so is a
 * hook in a folder core.hooksPath names for a nested repository (hooksFolderReason).
 */
export function ruleFor(
  rules: readonly PathRule[],
  absolute: string,
  userGit?: SandboxPolicy["git"],
): PathRule {
  const found = coveringRule(rules, absolute);
  if (found.kind !== "writable") return found;
  const reason =
    gitControlReason(absolute) ??
    (userGit === undefined ? undefined : hooksFolderReason(absolute, found.path, userGit));
  if (reason === undefined) return found;
  return rule(absolute, "protected", undefined, `${reason}; protected at any depth inside a writable folder`);
}

/**
 * The deepest rule covering `absolute` among the first `count` rules (all by default): what the
 * mounts make of the path.
 */
export function coveringRule(rules: readonly PathRule[], absolute: string, count = rules.length): PathRule {
  let found = rules[0];
  for (let index = 0; index < count; index += 1) {
    const candidate = rules[index];
    if (candidate !== undefined && isWithin(absolute, candidate.path)) found = candidate;
  }
  if (found === undefined) throw new Error("a sandbox layout always has a rule for /");
  return found;
}

/**
 * The rules a protected or hidden path needs: its own, and when it is a symlink, one for where it
 * leads. Inside a writable folder, a missing or symlinked path is watched as well.
 */
function sealPath(
  absolute: string,
  kind: "protected" | "hidden",
  reason: string,
  base: readonly PathRule[],
  watched: WatchedPath[],
): PathRule[] {
  const state = pathState(absolute);
  const present = state.kind === "file" || state.kind === "directory" ? state.kind : undefined;
  const rules = [rule(absolute, kind, present, reason)];
  if (state.kind === "missing" || state.kind === "symlink") {
    if (isWritable(coveringRule(base, absolute).kind))
      watched.push({ path: absolute, before: state, reason });
  }
  if (state.kind !== "symlink") return rules;
  const real = realpathOrUndefined(absolute);
  const target = real === undefined ? undefined : pathState(real);
  if (real !== undefined && (target?.kind === "file" || target?.kind === "directory")) {
    rules.push(rule(real, kind, target.kind, `${reason} (through the symlink ${absolute})`));
  }
  return rules;
}

/** Read-only rules for what must stay visible inside a concealed folder (a symlink stays a symlink). */
function exposedRules(exposed: readonly string[], base: readonly PathRule[]): PathRule[] {
  return exposed.flatMap((absolute) => {
    if (coveringRule(base, absolute).kind !== "concealed") return [];
    const state = pathState(absolute);
    if (state.kind === "missing") return [];
    if (state.kind === "symlink")
      return [{ ...rule(absolute, "read-only", undefined, "kept visible"), link: state.target }];
    return [rule(absolute, "read-only", state.kind, "kept visible")];
  });
}

/** Whether a rule of this kind lets commands write. */
export function isWritable(kind: PathRuleKind): boolean {
  return kind === "writable" || kind === "private-tmp";
}

function rule(absolute: string, kind: PathRuleKind, present: PathRule["present"], reason: string): PathRule {
  return { path: path.resolve(absolute), kind, present, reason };
}

/** Shallowest first; on equal paths, by KIND_ORDER; duplicates (same path and kind) dropped. */
function sortRules(rules: readonly PathRule[]): PathRule[] {
  const seen = new Set<string>();
  const unique = rules.filter((entry) => {
    const key = `${entry.kind}\0${entry.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        pathDepth(a.entry.path) - pathDepth(b.entry.path) ||
        KIND_ORDER.indexOf(a.entry.kind) - KIND_ORDER.indexOf(b.entry.kind) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}
