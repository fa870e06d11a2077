import { createHash, randomBytes } from "node:crypto";
import { copyFile, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ImageBlock, Message, TextBlock } from "../core/index.js";
import { makeFolder } from "../core/index.js";
import { entryHoldsImage, type SessionEntry } from "./session-entries.js";

export { imagesFolder } from "./session-paths.js";

/** A stored image's name: the sha256 of its bytes and its type's extension (nothing else is read back). */
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

const EXTENSION_BY_TYPE: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Applies `change` to every image block of a message (in the user's content and in tool results). */
async function mapMessageImages(
  message: Message,
  change: (image: ImageBlock) => Promise<ImageBlock | TextBlock>,
): Promise<Message> {
  const blocks = async (content: Array<TextBlock | ImageBlock>) =>
    await Promise.all(content.map((block) => (block.type === "image" ? change(block) : block)));
  if (message.role === "user") return { ...message, content: await blocks(message.content) };
  if (message.role === "tool")
    return {
      ...message,
      content: await Promise.all(
        message.content.map(async (result) => ({ ...result, content: await blocks(result.content) })),
      ),
    };
  return message;
}

/** Entries as the session file holds them: each image's bytes written to the folder (once), a name in its place. */
export interface StoredEntries {
  entries: SessionEntry[];
  /** The base64 of each image stored, by its name: what `withImageData` puts back. */
  data: Map<string, string>;
}

/**
 * Writes the bytes of every image in `entries` to `folder` (a file already there is the same bytes,
 * by its name, and is not written again) and returns the entries with `file` instead of `data`.
 * Each file is complete before any line names it: written under a temporary name, then renamed.
 */
export async function storeImages(entries: readonly SessionEntry[], folder: string): Promise<StoredEntries> {
  const data = new Map<string, string>();
  const stored: SessionEntry[] = [];
  for (const entry of entries) {
    if (entry.type !== "message" || !entryHoldsImage(entry)) {
      stored.push(entry);
      continue;
    }
    const message = await mapMessageImages(entry.message, async (image) => {
      const file = await storeImage(image, folder);
      data.set(file, image.data);
      const { data: _bytes, ...reference } = image;
      return { ...reference, file } as ImageBlock;
    });
    stored.push({ ...entry, message });
  }
  return { entries: stored, data };
}

async function storeImage(image: ImageBlock, folder: string): Promise<string> {
  const bytes = Buffer.from(image.data, "base64");
  const hash = createHash("sha256").update(bytes).digest("hex");
  const file = `${hash}.${EXTENSION_BY_TYPE[image.mediaType] ?? "png"}`;
  const path = join(folder, file);
  if ((await stat(path).catch(() => undefined))?.size === bytes.length) return file;
  await makeFolder(folder, 0o700);
  const temporary = `${path}.${randomBytes(4).toString("hex")}.partial`;
  try {
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/** `entry` with the bytes of each named image put back from `data` (an entry re-read after redaction). */
export async function withImageData(
  entry: SessionEntry,
  data: ReadonlyMap<string, string>,
): Promise<SessionEntry> {
  if (entry.type !== "message" || !entryHoldsImage(entry)) return entry;
  const message = await mapMessageImages(entry.message, async (image) =>
    image.file !== undefined && data.has(image.file)
      ? { ...image, data: data.get(image.file) as string }
      : image,
  );
  return { ...entry, message };
}

/**
 * Entries read from a session file with each image's bytes read back from `folder`. An image whose
 * file is gone (or whose name is not one panto writes) becomes a text block naming the file, with a
 * warning: the conversation still opens, and the model is told an image was there.
 */
export async function loadImages(
  entries: readonly SessionEntry[],
  folder: string,
): Promise<{ entries: SessionEntry[]; warnings: string[] }> {
  const warnings: string[] = [];
  const cache = new Map<string, Promise<string | undefined>>();
  const read = (file: string) => {
    let bytes = cache.get(file);
    if (bytes === undefined) {
      bytes = readFile(join(folder, file)).then(
        (buffer) => buffer.toString("base64"),
        () => undefined,
      );
      cache.set(file, bytes);
    }
    return bytes;
  };
  const loaded: SessionEntry[] = [];
  for (const entry of entries) {
    if (entry.type !== "message" || !entryHoldsImage(entry)) {
      loaded.push(entry);
      continue;
    }
    const message = await mapMessageImages(entry.message, async (image): Promise<ImageBlock | TextBlock> => {
      if (typeof image.data === "string") return image;
      const file = image.file ?? "";
      const data = STORED_NAME.test(file) ? await read(file) : undefined;
      // As the live session holds it: the bytes, and no file name (the next write derives it again).
      const { file: _stored, ...live } = image;
      if (data !== undefined) return { ...live, data };
      const path = join(folder, file);
      warnings.push(`entry ${entry.id}: image ${path} is missing; the model is told it was there`);
      return {
        type: "text",
        text: `[image missing: ${path}${image.name === undefined ? "" : ` (${image.name})`}]`,
      };
    });
    loaded.push({ ...entry, message });
  }
  return { entries: loaded, warnings };
}

/** The stored images an entry (as the file holds it) names. */
export function storedImageNames(entry: SessionEntry): string[] {
  if (entry.type !== "message") return [];
  const { message } = entry;
  const blocks =
    message.role === "user"
      ? message.content
      : message.role === "tool"
        ? message.content.flatMap((result) => result.content)
        : [];
  return blocks.flatMap((block) =>
    block.type === "image" && typeof block.file === "string" && STORED_NAME.test(block.file)
      ? [block.file]
      : [],
  );
}

/**
 * Copies the named images from one session's folder to another's (a fork's copied lines name them).
 * One already missing stays missing: the fork opens with the same placeholder as its parent would.
 */
export async function copyImages(
  names: ReadonlySet<string>,
  fromFolder: string,
  toFolder: string,
): Promise<void> {
  if (names.size === 0) return;
  await makeFolder(toFolder, 0o700);
  for (const name of names)
    await copyFile(join(fromFolder, name), join(toFolder, name)).catch(() => undefined);
}
