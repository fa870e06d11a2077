import { type FileHandle, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { IMAGE_EXTENSIONS, imageBlockInfo } from "../core/index.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { fileAccessFailure } from "./describe-error.js";
import type { FileAccess } from "./file-access.js";
import { BINARY_SNIFF_BYTES, looksBinary } from "./looks-binary.js";
import { numberLine } from "./number-lines.js";
import { openToolFile, refuseSpecialFile } from "./regular-file.js";
import type { Tool, ToolOutput } from "./tool.js";
import { ToolError } from "./tool-error.js";
import { textOutput } from "./tool-output.js";
import { accessTarget, frontEndFiles } from "./tool-paths.js";

/** Lines returned when the model gives no limit. */
export const DEFAULT_READ_LIMIT = 2000;
/** Characters of numbered text returned at most, however short the lines. */
export const MAX_READ_CHARS = 100_000;
const IMAGE_TYPES = IMAGE_EXTENSIONS;

export const readSchema = (z: Zod) =>
  z.strictObject({
    path: z.string().min(1).describe("File to read, relative to the working directory or absolute."),
    offset: z.number().int().min(1).optional().describe("1-based line number to start at (default 1)."),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Number of lines to read (default ${DEFAULT_READ_LIMIT}).`),
  });

/** Reads a text file with line numbers (a window of it with offset/limit), or an image. */
export function createReadTool(): Tool {
  return defineBuiltInTool({
    name: "read",
    kind: "read",
    description:
      `Read a file. Text comes back with line numbers (cat -n style), at most ${DEFAULT_READ_LIMIT} lines by default; ` +
      "use offset and limit to read other parts of long files. PNG, JPEG, GIF and WebP images come back as images.",
    schema: readSchema,
    async run(args, context) {
      const { absolute, shown, layout } = accessTarget(context, args.path, "read");
      const window = { offset: args.offset ?? 1, limit: args.limit ?? DEFAULT_READ_LIMIT };
      const isImage = IMAGE_TYPES[path.extname(absolute).toLowerCase()] !== undefined;
      const files = frontEndFiles(context);
      if (files !== undefined && !isImage)
        return textOutput(await readThroughFileAccess(files, absolute, shown, window, context.signal));
      await assertReadableFile(absolute, shown);
      const { handle } = await openToolFile(absolute, shown, "read", "read", layout);
      try {
        const mediaType = IMAGE_TYPES[path.extname(absolute).toLowerCase()];
        if (mediaType !== undefined) return await readImage(handle, shown);
        if (looksBinary(await readStart(handle))) {
          throw new ToolError(`${shown}: binary file; the read tool only returns text and images`);
        }
        return textOutput(await readNumberedLines(handle, shown, window, context.signal));
      } finally {
        await handle.close().catch(() => undefined);
      }
    },
  });
}

/**
 * The front-end's text of the file (an editor's buffer, unsaved changes included), numbered like a
 * local read. A directory or a pipe on disk is refused as locally; a file missing on disk is still
 * asked for, since the editor may hold it.
 */
async function readThroughFileAccess(
  files: FileAccess,
  absolute: string,
  shown: string,
  window: { offset: number; limit: number },
  signal: AbortSignal | undefined,
): Promise<string> {
  const info = await stat(absolute).catch(() => undefined);
  if (info !== undefined) {
    if (info.isDirectory()) throw new ToolError(`${shown} is a directory; use ls to list it`);
    refuseSpecialFile(info, shown, "read");
  }
  const text = await files.readText(absolute, signal).catch((error: unknown) => {
    throw info === undefined
      ? new ToolError(`File not found: ${shown}`)
      : fileAccessFailure("read", error, shown);
  });
  if (looksBinary(Buffer.from(text.slice(0, BINARY_SNIFF_BYTES), "utf8")))
    throw new ToolError(`${shown}: binary file; the read tool only returns text and images`);
  const lines: string[] = [];
  let chars = 0;
  const all = splitLines(text);
  for (let index = window.offset - 1; index < all.length; index += 1) {
    if (lines.length >= window.limit || chars >= MAX_READ_CHARS) break;
    const line = numberLine(
      index + 1,
      index === 0 ? (all[0] ?? "").replace(/^\uFEFF/, "") : (all[index] ?? ""),
    );
    lines.push(line);
    chars += line.length + 1;
  }
  return describeWindow(lines, all.length, window.offset, shown);
}

/** Lines as a local read counts them: "\n" or "\r\n" ends one, and a final newline starts none. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Checked before opening, so a pipe or device is refused without being touched. */
async function assertReadableFile(absolute: string, shown: string): Promise<void> {
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new ToolError(`File not found: ${shown}`);
    throw error;
  });
  if (info.isDirectory()) throw new ToolError(`${shown} is a directory; use ls to list it`);
  refuseSpecialFile(info, shown, "read");
}

async function readStart(handle: FileHandle): Promise<Uint8Array> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}

/**
 * The image as an image (a model that does not take images gets the text line and, in its place,
 * a placeholder: see withImageCheck). Its type is read from its header, not its name.
 */
async function readImage(handle: FileHandle, shown: string): Promise<ToolOutput> {
  // Loaded with the first image read, not with every run.
  const { checkImageFileSize, imageFromBytes } = await import("./image-from-bytes.js");
  checkImageFileSize((await handle.stat()).size, shown);
  const data = await handle.readFile();
  const image = imageFromBytes(data, shown);
  const info = imageBlockInfo(image);
  const size = info === undefined ? "" : `, ${info.width}x${info.height}`;
  return {
    content: [
      { type: "text", text: `Image ${shown} (${image.mediaType}${size}, ${data.length} bytes)` },
      image,
    ],
    isError: false,
  };
}

/**
 * Streams the file so a huge log costs memory only for the window shown, while still counting
 * every line so the model learns how much is left and where to continue.
 */
async function readNumberedLines(
  handle: FileHandle,
  shown: string,
  window: { offset: number; limit: number },
  signal: AbortSignal | undefined,
): Promise<string> {
  const lines: string[] = [];
  let total = 0;
  let chars = 0;
  const input = handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false });
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const raw of reader) {
      if (signal?.aborted) throw new ToolError(`read ${shown}: aborted`);
      total += 1;
      const full = lines.length >= window.limit || chars >= MAX_READ_CHARS;
      if (total < window.offset || full) continue;
      const line = numberLine(total, total === 1 ? raw.replace(/^\uFEFF/, "") : raw);
      lines.push(line);
      chars += line.length + 1;
    }
  } finally {
    reader.close();
    input.destroy();
  }
  return describeWindow(lines, total, window.offset, shown);
}

function describeWindow(lines: string[], total: number, offset: number, shown: string): string {
  if (total === 0) return `(${shown} is empty)`;
  if (offset > total) {
    throw new ToolError(`offset ${offset} is past the end of ${shown} (${total} lines)`);
  }
  const next = offset + lines.length;
  const remaining = total - next + 1;
  if (remaining <= 0) return lines.join("\n");
  return `${lines.join("\n")}\n\n... ${remaining} more lines; use offset=${next} to read more`;
}
