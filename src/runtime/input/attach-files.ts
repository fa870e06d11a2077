import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { checkAccess } from "../../sandbox/check-access.js";
import type { ToolSandbox } from "../../sandbox/index.js";
import { SandboxRefusal } from "../../sandbox/sandbox-error.js";
import type { SandboxLayout } from "../../sandbox/sandbox-layout.js";
import { MAX_READ_CHARS, ToolError } from "../../tools/index.js";
import { looksBinary } from "../../tools/looks-binary.js";
import { openToolFile, refuseSpecialFile } from "../../tools/regular-file.js";

/** A prompt with its `@PATH` files attached, or the first reason one cannot be (nothing is sent then). */
export type Attached = { ok: true; text: string; files: string[] } | { ok: false; error: string };

/** `@path` at the start or after whitespace (so e-mail addresses are left alone). */
const MENTION = /(?:^|\s)@(\S+)/g;
/** Trailing punctuation that belongs to the sentence, not the path ("look at @a.ts, then..."). */
const TRAILING = /[,;:!?)\]}'"]+$|\.+$/;

/**
 * Attaches the text of every file named `@PATH` in the prompt (relative to `cwd`), after the
 * prompt, each in a `<file path="...">` block. The same checks as the read tool: regular files
 * only, text only, at most MAX_READ_CHARS characters each. A missing file is an error naming it.
 * With the run's sandbox, a file its rules keep from the model's tools is refused, naming the rule.
 */
export async function attachFiles(prompt: string, cwd: string, sandbox?: ToolSandbox): Promise<Attached> {
  const paths = await mentionedPaths(prompt, cwd);
  if (!paths.ok) return paths;
  const blocks: string[] = [];
  const layout = sandbox?.layout();
  for (const path of paths.files) {
    try {
      // In a sandbox, what the model's tools may not read is not handed to it through @ either.
      const given = resolve(cwd, path);
      const absolute = layout === undefined ? given : checkAccess(layout, given, "read", path);
      blocks.push(`<file path="${path}">\n${await readAttachment(absolute, path, layout)}\n</file>`);
    } catch (error) {
      const known = error instanceof ToolError || error instanceof SandboxRefusal;
      if (!known && (error as NodeJS.ErrnoException).code === undefined) throw error;
      return { ok: false, error: `@${path}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  if (blocks.length === 0) return { ok: true, text: prompt, files: [] };
  return { ok: true, text: `${prompt}\n\n${blocks.join("\n\n")}`, files: paths.files };
}

async function mentionedPaths(
  prompt: string,
  cwd: string,
): Promise<{ ok: true; files: string[] } | { ok: false; error: string }> {
  const files: string[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const written = match[1] ?? "";
    const path = (await exists(resolve(cwd, written))) ? written : written.replace(TRAILING, "");
    if (path === "") continue;
    if (!(await exists(resolve(cwd, path))))
      return { ok: false, error: `@${path}: no such file (${resolve(cwd, path)}); nothing was sent` };
    const shown = isAbsolute(path) ? path : relative(cwd, resolve(cwd, path)) || path;
    if (!files.includes(shown)) files.push(shown);
  }
  return { ok: true, files };
}

/** Read as the read tool reads: in a sandbox, through the verified descriptor (openToolFile). */
async function readAttachment(
  absolute: string,
  shown: string,
  layout: SandboxLayout | undefined,
): Promise<string> {
  const info = await stat(absolute);
  if (info.isDirectory()) throw new ToolError(`${shown} is a directory; attach files, not folders`);
  refuseSpecialFile(info, shown, "@");
  // A UTF-8 character takes at most 4 bytes: this many bytes are too many characters, unread.
  if (info.size > 4 * MAX_READ_CHARS) throw tooLarge(shown, `${info.size} bytes`);
  const { handle } = await openToolFile(absolute, shown, "@", "read", layout);
  try {
    const { size } = await handle.stat();
    if (size > 4 * MAX_READ_CHARS) throw tooLarge(shown, `${size} bytes`);
    const data = await handle.readFile();
    if (looksBinary(data.subarray(0, 8192)))
      throw new ToolError(`${shown}: binary file; only text can be attached`);
    const text = data.toString("utf8");
    if (text.length > MAX_READ_CHARS) throw tooLarge(shown, `${text.length} characters`);
    return text;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function tooLarge(shown: string, size: string): ToolError {
  return new ToolError(
    `${shown} is too large to attach (${size}; the limit is ${MAX_READ_CHARS} characters, as for the read tool); ask the model to read the part you need instead`,
  );
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
