import { createReadStream } from "node:fs";
import { type FileHandle, open, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { makeFolder } from "../core/index.js";
import { toLine, writeAll } from "./file-session.js";
import { newSessionHeader } from "./open-session.js";
import { parseSessionLine } from "./parse-session-line.js";
import { validateHeader } from "./read-session-header.js";
import { entryHoldsImage, type SessionEntry, type SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";
import { imagesFolder } from "./session-paths.js";
import { isTurnStart } from "./turn-numbers.js";

export interface ForkSessionOptions {
  /** The session forked from; only read. */
  parentPath: string;
  /** The parent's turn the fork starts after (1-based); default: the whole parent. */
  turn?: number;
  /** The new session's file; it must not exist. */
  path: string;
  /** Working directory recorded in the new header. */
  cwd: string;
}

export interface ForkedSession {
  path: string;
  header: SessionHeader;
  /** The parent's turn the fork starts after. */
  turn: number;
  /** Entries copied. */
  entries: number;
  /**
   * Object ids the copied checkpoint and rewind entries name, by the workspace root they were taken
   * in (their content is in that workspace's checkpoint store).
   */
  objects: Map<string, Set<string>>;
}

/** Where the copy stops: before the first turn after the fork point, or a rewind written after it. */
function endsFork(entry: SessionEntry, turnsSeen: number, turn: number): boolean {
  if (turnsSeen < turn) return false;
  return isTurnStart(entry) || entry.type === "rewind";
}

function noteObjects(entry: SessionEntry, objects: Map<string, Set<string>>): void {
  if ((entry.type !== "checkpoint" && entry.type !== "rewind") || entry.root === undefined) return;
  const oids = objects.get(entry.root) ?? new Set<string>();
  for (const file of entry.files) {
    if (file.before !== null) oids.add(file.before.oid);
    if (file.after !== null) oids.add(file.after.oid);
  }
  if (oids.size > 0) objects.set(entry.root, oids);
}

/** The parent's lines after its header, parsed, streamed. */
async function* parentEntries(
  parentPath: string,
): AsyncGenerator<{ header: SessionHeader } | { entry: SessionEntry; line: string }> {
  const lines = createInterface({
    input: createReadStream(parentPath, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let sawHeader = false;
  try {
    for await (const line of lines) {
      if (!sawHeader) {
        sawHeader = true;
        yield { header: validateHeader(parentPath, parseHeaderLine(parentPath, line)) };
        continue;
      }
      const parsed = parseSessionLine(line);
      if (parsed.kind === "entry") yield { entry: parsed.entry, line };
    }
  } finally {
    lines.close();
  }
  if (!sawHeader) throw new SessionError(parentPath, `${parentPath} is empty: not a session file`);
}

function parseHeaderLine(path: string, line: string): unknown {
  try {
    return JSON.parse(line.replace(/^\uFEFF/, ""));
  } catch {
    throw new SessionError(path, `${path}: line 1 is not a session header (not JSON)`, { line: 1 });
  }
}

async function countTurns(parentPath: string): Promise<number> {
  let turns = 0;
  for await (const item of parentEntries(parentPath)) if ("entry" in item && isTurnStart(item.entry)) turns++;
  return turns;
}

/**
 * Writes the fork: its header, then the parent's entry lines verbatim up to the fork point.
 * Returns how many turns and entries were copied and the objects they name.
 */
async function writeFork(options: ForkSessionOptions, target: FileHandle, turn: number) {
  let header: SessionHeader | undefined;
  let turnsSeen = 0;
  let entries = 0;
  const objects = new Map<string, Set<string>>();
  const images = new Set<SessionEntry>();
  for await (const item of parentEntries(options.parentPath)) {
    if ("header" in item) {
      const parent = { id: item.header.id, path: resolve(options.parentPath), relation: "fork", turn };
      header = newSessionHeader(options.cwd, parent);
      await writeAll(target, Buffer.from(toLine(header), "utf8"));
      continue;
    }
    if (endsFork(item.entry, turnsSeen, turn)) break;
    if (isTurnStart(item.entry)) turnsSeen++;
    noteObjects(item.entry, objects);
    if (entryHoldsImage(item.entry)) images.add(item.entry);
    await writeAll(target, Buffer.from(`${item.line}\n`, "utf8"));
    entries++;
  }
  return { header: header as SessionHeader, turnsSeen, entries, objects, images };
}

/**
 * Starts a new session file from a point of another: a header naming the parent and the point,
 * then the parent's entries word for word up to the end of turn `turn` (before the next turn, or
 * a rewind written after it), so replay gives the context the parent had there: tool calls keep
 * their results, compactions and rewinds before the point keep their effect. The parent is only
 * read. Written under a temporary name and renamed, so the new file appears whole or not at all.
 */
export async function forkSession(options: ForkSessionOptions): Promise<ForkedSession> {
  if (options.turn !== undefined && (!Number.isInteger(options.turn) || options.turn < 1))
    throw new SessionError(
      options.parentPath,
      `cannot fork at turn ${options.turn}: turns are numbered from 1`,
    );
  const turn = options.turn ?? (await countTurns(options.parentPath));
  if (turn === 0)
    throw new SessionError(options.parentPath, `${options.parentPath} has no turn to fork from`);
  const path = resolve(options.path);
  await makeFolder(dirname(path), 0o700);
  const temporary = `${path}.forking`;
  const file = await open(temporary, "wx", 0o600);
  try {
    const written = await writeFork(options, file, turn);
    if (written.turnsSeen < turn)
      throw new SessionError(
        options.parentPath,
        `cannot fork at turn ${turn}: ${options.parentPath} has ${written.turnsSeen} turn${written.turnsSeen === 1 ? "" : "s"}`,
      );
    await file.close();
    // The copied lines name images by file: the fork gets its own copies before it appears.
    if (written.images.size > 0) {
      const { copyImages, storedImageNames } = await import("./session-images.js");
      const names = new Set([...written.images].flatMap(storedImageNames));
      await copyImages(names, imagesFolder(resolve(options.parentPath)), imagesFolder(path));
    }
    await rename(temporary, path);
    return { path, header: written.header, turn, entries: written.entries, objects: written.objects };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
