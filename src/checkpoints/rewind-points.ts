import {
  type RewindScope,
  readSessionSnapshot,
  rewoundMask,
  type SessionEntry,
  turnStarts,
} from "../session/index.js";

/** A point a session can be rewound to, for the list `/rewind` shows. */
export type RewindPoint =
  | {
      kind: "turn";
      turn: number;
      /** The prompt's text (its first line is what a list shows). */
      prompt: string;
      ts: string;
      /** Paths the turn's tool calls changed (as recorded), in order of first change. */
      files: string[];
      /** True when a checkpoint of the turn failed or a call ran without one: its code cannot be rewound. */
      unrecorded: boolean;
      /** "rewound": a rewind took it out of the context; "failed": it failed for good; else it is in the context. */
      state: "kept" | "rewound" | "failed";
    }
  | {
      kind: "rewind";
      /** The rewind's point: the turn the context went back to (before it). */
      turn: number;
      scope: RewindScope;
      ts: string;
      /** True for the latest rewind, the one `--undo` undoes. */
      latest: boolean;
    };

function promptText(entry: SessionEntry): string {
  if (entry.type !== "message") return "";
  return entry.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** Per turn: the files its checkpoints changed, whether one failed, whether the turn failed for good. */
function perTurn(entries: readonly SessionEntry[], mask: readonly boolean[]) {
  const files = new Map<number, string[]>();
  const unrecorded = new Set<number>();
  const failed = new Set<number>();
  let turn = 0;
  const starts = new Set(turnStarts(entries).map((start) => start.index));
  entries.forEach((entry, index) => {
    if (starts.has(index)) turn++;
    // A turn that fails for good gets its turn-failed entry at its end, before the next turn.
    if (entry.type === "turn-failed" && mask[index] !== true) failed.add(turn);
    if (entry.type !== "checkpoint") return;
    if (entry.error !== undefined) unrecorded.add(turn);
    const list = files.get(turn) ?? [];
    for (const file of entry.files) if (!list.includes(file.path)) list.push(file.path);
    files.set(turn, list);
  });
  return { files, unrecorded, failed };
}

/**
 * Every point of a session file (read whole, read only) in file order: each turn with its prompt,
 * the files it changed and whether the context holds it now, and each rewind (a point too: going
 * back to just before it undoes it).
 */
export async function listRewindPoints(sessionPath: string): Promise<RewindPoint[]> {
  const { entries } = await readSessionSnapshot(sessionPath);
  const mask = rewoundMask(entries);
  const { files, unrecorded, failed } = perTurn(entries, mask);
  const starts = turnStarts(entries);
  const latestRewind = entries.findLastIndex((entry) => entry.type === "rewind");
  const points: Array<RewindPoint & { index: number }> = starts.map((start) => ({
    index: start.index,
    kind: "turn",
    turn: start.turn,
    prompt: promptText(start.entry),
    ts: start.entry.ts,
    files: files.get(start.turn) ?? [],
    unrecorded: unrecorded.has(start.turn),
    state: mask[start.index] === true ? "rewound" : failed.has(start.turn) ? "failed" : "kept",
  }));
  entries.forEach((entry, index) => {
    if (entry.type !== "rewind") return;
    points.push({
      index,
      kind: "rewind",
      turn: entry.turn,
      scope: entry.scope,
      ts: entry.ts,
      latest: index === latestRewind,
    });
  });
  return points.sort((a, b) => a.index - b.index).map(({ index: _index, ...point }) => point as RewindPoint);
}
