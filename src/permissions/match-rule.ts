import path from "node:path";
import picomatch from "picomatch";
import type { PermissionRule } from "./permission-rule.js";

/** A tool call as permission rules see it; paths absolute, with symlinks already resolved. */
export type PermissionCall =
  | { tool: "bash"; command: string }
  | { tool: "read" | "ls" | "glob" | "grep"; path: string }
  | { tool: "write" | "edit"; path: string }
  | { tool: "web_fetch"; url: string }
  | { tool: "web_search" }
  /** An MCP tool by its full name, `mcp__server__tool`. */
  | { tool: "mcp"; name: string }
  | { tool: "task"; agent: string }
  | { tool: "skill"; name: string }
  | { tool: "recall" };

/** Where relative paths in rules start: the project root, and the home folder for `~/`. */
export interface RulePlaces {
  root: string;
  home: string;
}

const READING = new Set(["read", "ls", "glob", "grep"]);

/** Whether `rule` covers `call` as a whole (a command rule: whether it covers one simple command, `part`). */
export function ruleCovers(
  rule: PermissionRule,
  call: PermissionCall,
  places: RulePlaces,
  part?: string,
): boolean {
  switch (rule.kind) {
    case "bash":
      if (call.tool !== "bash") return false;
      return rule.command === undefined || commandMatches(rule.command, part ?? call.command);
    case "read":
      return READING.has(call.tool) && "path" in call && pathMatches(rule.path, call.path, places);
    case "edit":
      return (call.tool === "write" || call.tool === "edit") && pathMatches(rule.path, call.path, places);
    case "web_fetch":
      return call.tool === "web_fetch" && (rule.domain === undefined || hostMatches(rule.domain, call.url));
    case "web_search":
      return call.tool === "web_search";
    case "mcp":
      if (call.tool !== "mcp") return false;
      return rule.tool === undefined
        ? call.name.startsWith(`mcp__${rule.server}__`)
        : call.name === `mcp__${rule.server}__${rule.tool}`;
    case "task":
      return call.tool === "task" && (rule.agent === undefined || rule.agent === call.agent);
    case "skill":
      return call.tool === "skill" && (rule.name === undefined || rule.name === call.name);
    case "tool":
      return call.tool === rule.tool;
  }
}

const squeeze = (text: string): string => text.trim().replace(/\s+/g, " ");

/**
 * A command pattern against one simple command: `prefix:*` is the prefix alone or followed by
 * arguments; `*` elsewhere is any text (a trailing ` *` also takes the bare command, as `:*`
 * does); anything else is the exact command. Runs of spaces count as one.
 */
export function commandMatches(pattern: string, command: string): boolean {
  const wanted = squeeze(pattern);
  const given = squeeze(command);
  if (wanted.endsWith(":*")) {
    const prefix = wanted.slice(0, -2).trimEnd();
    return given === prefix || given.startsWith(`${prefix} `);
  }
  if (!wanted.includes("*")) return given === wanted;
  const optionalTail = wanted.endsWith(" *");
  const body = optionalTail ? wanted.slice(0, -2) : wanted;
  const source = body
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}${optionalTail ? "(?: .*)?" : ""}$`, "s").test(given);
}

/**
 * A path glob against an absolute path, with gitignore's anchoring as Claude Code reads it:
 * `//x` absolute, `~/x` from home, `/x`, `./x` and any pattern with a slash from the project root,
 * a bare name (`.env`, `*.pem`) at any depth under the root. A pattern that matches a folder
 * covers everything in it. No pattern: every path.
 */
export function pathMatches(pattern: string | undefined, target: string, places: RulePlaces): boolean {
  if (pattern === undefined) return true;
  const glob = absoluteGlob(pattern, places);
  const test = picomatch(glob, { dot: true });
  for (let current = path.resolve(target); ; current = path.dirname(current)) {
    if (test(current)) return true;
    if (path.dirname(current) === current) return false;
  }
}

function absoluteGlob(pattern: string, places: RulePlaces): string {
  const folder = pattern.endsWith("/") ? `${pattern}**` : pattern;
  if (folder.startsWith("//")) return folder.slice(1);
  if (folder.startsWith("~/")) return path.posix.join(places.home, folder.slice(2));
  if (folder.startsWith("/")) return path.posix.join(places.root, folder.slice(1));
  if (folder.startsWith("./")) return path.posix.join(places.root, folder.slice(2));
  const inner = folder.replace(/\/\*\*$/, "");
  if (!inner.includes("/")) return path.posix.join(places.root, "**", folder);
  return path.posix.join(places.root, folder);
}

/**
 * `domain:host` covers that host; `domain:*.host` its subdomains as well. A fully qualified name's
 * trailing dot (`docs.rs.`) is dropped on both sides: it names the same host, so it must not slip
 * past a deny rule.
 */
function hostMatches(domain: string, url: string): boolean {
  let host: string;
  try {
    host = withoutRootDot(new URL(url).hostname.toLowerCase());
  } catch {
    return false;
  }
  const wanted = withoutRootDot(domain);
  if (wanted.startsWith("*.")) return host === wanted.slice(2) || host.endsWith(wanted.slice(1));
  return host === wanted;
}

const withoutRootDot = (host: string): string => (host.endsWith(".") ? host.slice(0, -1) : host);
