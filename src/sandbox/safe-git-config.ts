/**
 * Keys `git init` and `git clone` write, none of which names a program: a new repository whose
 * config holds only these keeps it. `remote.*.url` may name the `ext::` transport, which git
 * refuses unless the user's own config allows it (protocol.ext.allow defaults to never).
 */
const SAFE_KEYS: ReadonlySet<string> = new Set([
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.logallrefupdates",
  "core.ignorecase",
  "core.precomposeunicode",
  "core.symlinks",
  "remote.url",
  "remote.fetch",
  "branch.remote",
  "branch.merge",
]);

const SECTION = /^\[\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:"(?:[^"\\\n]|\\.)*")?\s*\]$/;
const KEY = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/;

/**
 * Whether a git config text holds nothing but SAFE_KEYS, in the plain form git writes them. Any
 * line this does not understand (an include, a continued value, a key after a section header on
 * the same line, a subsection of `core`) makes it unsafe: git's syntax is larger than this reads,
 * and unsure means put aside.
 */
export function isSafeGitConfig(text: string): boolean {
  let section: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = SECTION.exec(line);
    if (header?.[1] !== undefined) {
      section = header[1].toLowerCase();
      const hasSubsection = line.includes('"');
      if ((section === "core") === hasSubsection) return false;
      continue;
    }
    const key = KEY.exec(line);
    if (key?.[1] === undefined || section === undefined) return false;
    if ((key[2] ?? "").trimEnd().endsWith("\\")) return false;
    if (!SAFE_KEYS.has(`${section}.${key[1].toLowerCase()}`)) return false;
  }
  return true;
}
