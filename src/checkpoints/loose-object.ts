import { createHash, randomBytes } from "node:crypto";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { deflate, inflate } from "node:zlib";
import { makeFolder } from "../core/index.js";

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

function blobHeader(size: number): Buffer {
  return Buffer.from(`blob ${size}\0`, "latin1");
}

/** The git blob id of `content`: what `git hash-object` prints for it. */
export function blobOid(content: Buffer): string {
  return createHash("sha1").update(blobHeader(content.length)).update(content).digest("hex");
}

/** Where a loose object lives in an objects folder. */
export function looseObjectPath(objectsDir: string, oid: string): string {
  return join(objectsDir, oid.slice(0, 2), oid.slice(2));
}

/** Whether the objects folder holds this object loose (the store never packs its objects). */
export async function hasLooseObject(objectsDir: string, oid: string): Promise<boolean> {
  return (await stat(looseObjectPath(objectsDir, oid)).catch(() => undefined)) !== undefined;
}

/**
 * Stores `content` as a loose git blob (zlib of header and content, as git writes them), unless it
 * is there already, and returns its id. Written to a temporary name and renamed, so a reader never
 * sees half an object.
 */
export async function writeLooseBlob(objectsDir: string, content: Buffer): Promise<string> {
  const oid = blobOid(content);
  const target = looseObjectPath(objectsDir, oid);
  if (await hasLooseObject(objectsDir, oid)) return oid;
  const data = await deflateAsync(Buffer.concat([blobHeader(content.length), content]));
  await makeFolder(join(objectsDir, oid.slice(0, 2)), 0o700);
  const temporary = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, data, { mode: 0o444 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return oid;
}

/**
 * The content of a loose blob, or undefined when the folder does not hold it. Throws when the
 * object is damaged: its header, size or id do not match.
 */
export async function readLooseBlob(objectsDir: string, oid: string): Promise<Buffer | undefined> {
  let raw: Buffer;
  try {
    raw = await readFile(looseObjectPath(objectsDir, oid));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  const data = await inflateAsync(raw);
  const nul = data.indexOf(0);
  const header = data.subarray(0, nul).toString("latin1");
  const content = data.subarray(nul + 1);
  if (header !== `blob ${content.length}` || blobOid(content) !== oid)
    throw new Error(`checkpoint object ${oid} is damaged`);
  return content;
}
