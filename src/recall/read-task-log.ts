import { open, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { tasksFolder } from "../session/index.js";

/**
 * A page of background task `id`'s log, kept beside the session as `<name>.tasks/<id>.log` (`work.jsonl`: `work.tasks/`):
 * up to `bytes` bytes from byte `offset` (cut back to whole UTF-8 characters), with how to ask for
 * the next page. A log is as long as the task's output, so it is never read whole. Not found:
 * which logs there are.
 */
export async function readTaskLog(
  sessionPath: string,
  id: string,
  offset: number,
  bytes: number,
): Promise<{ ok: boolean; text: string }> {
  const folder = tasksFolder(sessionPath);
  if (!/^bg\d+$/.test(id))
    return { ok: false, text: `"${id}" is not a background task id (they look like bg1)` };
  let page: { text: string; size: number; end: number };
  try {
    page = await readPage(join(folder, `${id}.log`), offset, bytes);
  } catch {
    const logs = await readdir(folder).catch(() => [] as string[]);
    const ids = logs.filter((name) => name.endsWith(".log")).map((name) => name.slice(0, -4));
    const known =
      ids.length === 0 ? "none was started in this session" : `the tasks are ${ids.sort().join(", ")}`;
    return {
      ok: false,
      text: `no log of background task ${id} beside this session (${basename(folder)}): ${known}`,
    };
  }
  const from = offset === 0 ? "" : `, from byte ${offset}`;
  const more =
    page.end < page.size
      ? `\n\n[More follows: call recall with ${JSON.stringify({ task: id, offset: page.end })} for the next page.]`
      : "";
  const body = page.text === "" ? "(no output)" : page.text;
  return { ok: true, text: `Output of background task ${id} (${page.size} bytes${from}):\n${body}${more}` };
}

async function readPage(
  path: string,
  offset: number,
  bytes: number,
): Promise<{ text: string; size: number; end: number }> {
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.max(0, Math.min(bytes, size - offset)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    const whole = wholeCharacters(buffer.subarray(0, bytesRead), offset + bytesRead < size);
    return { text: whole.toString("utf8"), size, end: offset + whole.length };
  } finally {
    await handle.close();
  }
}

/** `chunk` without a UTF-8 character cut at its end (when more follows), so pages join exactly. */
function wholeCharacters(chunk: Buffer, moreFollows: boolean): Buffer {
  if (!moreFollows) return chunk;
  let start = chunk.length - 1;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (start > 0 && start > chunk.length - 4 && ((chunk[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = chunk[start] ?? 0;
  const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return start + length > chunk.length ? chunk.subarray(0, start) : chunk;
}
