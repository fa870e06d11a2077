import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, extname, isAbsolute, join, relative, resolve } from "node:path";
import { IMAGE_EXTENSIONS, type ImageBlock } from "../../core/index.js";
import { checkAccess } from "../../sandbox/check-access.js";
import type { ToolSandbox } from "../../sandbox/index.js";
import { SandboxRefusal } from "../../sandbox/sandbox-error.js";
import type { SandboxLayout } from "../../sandbox/sandbox-layout.js";
import { MAX_READ_CHARS, ToolError } from "../../tools/index.js";
import { looksBinary } from "../../tools/looks-binary.js";
import { openToolFile, refuseSpecialFile } from "../../tools/regular-file.js";

/**
 * A prompt with its `@PATH` files attached (text files after the prompt, images as image blocks),
 * or the first reason one cannot be (nothing is sent then).
 */
export type Attached =
  | { ok: true; text: string; files: string[]; images: ImageBlock[] }
  | { ok: false; error: string };

/** `@path` at the start or after whitespace (so e-mail addresses are left alone). */
const MENTION = /(?:^|\s)@(\S+)/g;
/** Trailing punctuation that belongs to the sentence, not the path ("look at @a.ts, then..."). */
const TRAILING = /[,;:!?)\]}'"]+$|\.+$/;

/**
 * Attaches the text of every file named `@PATH` in the prompt (relative to `cwd`), after the
 * prompt, each in a `<file path="...">` block; a PNG, JPEG, GIF or WebP file goes as an image (the
 * `@PATH` stays in the text, so the model knows which picture is which). The same checks as the read tool: regular files
 * only, text only, at most MAX_READ_CHARS characters each. A missing file is an error naming it.
 * With the run's sandbox, a file its rules keep from the model's tools is refused, naming the rule.
 */
export async function attachFiles(prompt: string, cwd: string, sandbox?: ToolSandbox): Promise<Attached> {
  const paths = await mentionedPaths(prompt, cwd);
  if (!paths.ok) return paths;
  const blocks: string[] = [];
  const images: ImageBlock[] = [];
  // Resolving the sandbox's rules against the file system costs milliseconds of every start:
  // only a prompt that names a file pays it.
  const layout = paths.files.length === 0 ? undefined : sandbox?.layout();
  for (const path of paths.files) {
    try {
      // In a sandbox, what the model's tools may not read is not handed to it through @ either.
      const given = resolve(cwd, path);
      const absolute = layout === undefined ? given : checkAccess(layout, given, "read", path);
      if (isImagePath(path)) images.push(await readImageAttachment(absolute, path, layout));
      else blocks.push(`<file path="${path}">\n${await readAttachment(absolute, path, layout)}\n</file>`);
    } catch (error) {
      return { ok: false, error: `@${path}: ${attachFailure(error)}` };
    }
  }
  const pasted = await attachPastedImages(prompt, cwd, sandbox, paths.files);
  if (!pasted.ok) return pasted;
  images.push(...pasted.images);
  const files = [...paths.files, ...pasted.files];
  if (blocks.length === 0) return { ok: true, text: prompt, files, images };
  return { ok: true, text: `${prompt}\n\n${blocks.join("\n\n")}`, files, images };
}

/**
 * A path as a terminal pastes a file dropped on it: absolute or under `~/`, quoted ('...' or "...")
 * or with its spaces escaped, standing alone between spaces.
 */
const PASTED_PATH = /(?<=^|\s)(?:'([~/][^'\n]*)'|"([~/][^"\n]*)"|([~/](?:\\ |\S)*))(?=\s|$)/g;

/**
 * Every image file pasted into the prompt as a path (see PASTED_PATH) that exists, attached as an
 * image like `@PATH`; a path that names no file, or no image, stays plain text.
 */
async function attachPastedImages(
  prompt: string,
  cwd: string,
  sandbox: ToolSandbox | undefined,
  mentioned: readonly string[],
): Promise<{ ok: true; images: ImageBlock[]; files: string[] } | { ok: false; error: string }> {
  const images: ImageBlock[] = [];
  const files: string[] = [];
  // Resolved at the first pasted image (see attachFiles), once for all of them.
  let layout: SandboxLayout | undefined;
  for (const match of prompt.matchAll(PASTED_PATH)) {
    const written = (match[1] ?? match[2] ?? match[3] ?? "").replace(/\\ /g, " ");
    const given = written.startsWith("~/") ? join(homedir(), written.slice(2)) : written;
    if (!isImagePath(given) || mentioned.includes(given) || files.includes(given)) continue;
    if (!(await stat(given).catch(() => undefined))?.isFile()) continue;
    try {
      layout ??= sandbox?.layout();
      const absolute =
        layout === undefined ? resolve(cwd, given) : checkAccess(layout, resolve(cwd, given), "read", given);
      images.push(await readImageAttachment(absolute, given, layout));
      files.push(given);
    } catch (error) {
      return { ok: false, error: `${given}: ${attachFailure(error)}` };
    }
  }
  return { ok: true, images, files };
}

/** A PNG, JPEG, GIF or WebP file by its name: attached as an image, not as text. */
function isImagePath(path: string): boolean {
  return IMAGE_EXTENSIONS[extname(path).toLowerCase()] !== undefined;
}

/** What went wrong reading an attachment, for the user; an unexpected failure is rethrown. */
function attachFailure(error: unknown): string {
  const known = error instanceof ToolError || error instanceof SandboxRefusal;
  if (!known && (error as NodeJS.ErrnoException).code === undefined) throw error;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The images `--image FILE` names (relative to `cwd`), read with the same checks as `@PATH` (the
 * sandbox's read rules, regular files, the size limits, a real image header); the first failure
 * names its file and nothing is sent.
 */
export async function attachImageFiles(
  paths: readonly string[],
  cwd: string,
  sandbox?: ToolSandbox,
): Promise<{ ok: true; images: ImageBlock[] } | { ok: false; error: string }> {
  const images: ImageBlock[] = [];
  const layout = sandbox?.layout();
  for (const path of paths) {
    try {
      const given = resolve(cwd, path);
      const absolute = layout === undefined ? given : checkAccess(layout, given, "read", path);
      images.push(await readImageAttachment(absolute, path, layout));
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      const why = missing ? `no such file (${resolve(cwd, path)})` : attachFailure(error);
      return { ok: false, error: `--image ${path}: ${why}; nothing was sent` };
    }
  }
  return { ok: true, images };
}

/** An image file as an image block (the read tool's checks and limits), through the sandbox's descriptor. */
async function readImageAttachment(
  absolute: string,
  shown: string,
  layout: SandboxLayout | undefined,
): Promise<ImageBlock> {
  const info = await stat(absolute);
  if (info.isDirectory()) throw new ToolError(`${shown} is a directory; attach files, not folders`);
  refuseSpecialFile(info, shown, "@");
  // Loaded with the first image attached, not with every run.
  const { checkImageFileSize, imageFromBytes } = await import("../../tools/image-from-bytes.js");
  checkImageFileSize(info.size, shown);
  const { handle } = await openToolFile(absolute, shown, "@", "read", layout);
  try {
    checkImageFileSize((await handle.stat()).size, shown);
    const image = imageFromBytes(await handle.readFile(), shown);
    return { ...image, name: basename(shown) };
  } finally {
    await handle.close().catch(() => undefined);
  }
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
