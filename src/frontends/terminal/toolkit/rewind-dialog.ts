import {
  describeRewindPoint,
  listRewindPoints,
  type PreparedRewind,
  plannedActions,
  prepareRewind,
  type RewindTarget,
  turnRanges,
} from "../../../checkpoints/index.js";
import type { RewindChoice } from "../../../runtime/front-end.js";
import type { RewindScope } from "../../../session/index.js";
import { type ListItem, type PickerSurface, pickWithKeys } from "./list-picker.js";

/** What the terminal offers the dialog: keys and a screen, and a yes/no question. */
export interface RewindDialogIo {
  surface: PickerSurface;
  /** Asks a yes/no question (default no). */
  confirm(question: string): Promise<boolean>;
}

function filesToRestore(prepared: PreparedRewind): number {
  return plannedActions(prepared).filter((action) => action.outcome === "restored").length;
}

function conversationText(prepared: PreparedRewind): string {
  const dropped =
    prepared.droppedTurns.length === 0 ? "" : `turns ${turnRanges(prepared.droppedTurns)} leave the context`;
  const back =
    prepared.restoredTurns.length === 0 ? "" : `turns ${turnRanges(prepared.restoredTurns)} come back`;
  return [dropped, back].filter((part) => part !== "").join(", ") || "the context stays as it is";
}

/** The three ways to rewind to the chosen point, with what each would do; code ones disabled when blocked. */
function scopeItems(both: PreparedRewind): ListItem<RewindScope>[] {
  const blockers = both.code?.plan.blockers ?? [];
  const files = filesToRestore(both);
  const filesText = `${files} file${files === 1 ? "" : "s"} to restore`;
  const items: ListItem<RewindScope>[] = [
    {
      text: ` Code and conversation: ${filesText}; ${conversationText(both)}`,
      value: "both",
      disabled: blockers.length > 0,
    },
    { text: ` Conversation only: ${conversationText(both)}`, value: "conversation" },
    { text: ` Code only: ${filesText}`, value: "code", disabled: blockers.length > 0 },
  ];
  if (blockers.length > 0)
    items.push({
      text: ` (the files cannot be rewound: ${blockers.join("; ")})`,
      value: "conversation",
      disabled: true,
    });
  return items;
}

/**
 * `/rewind` in a terminal (and Esc Esc): every turn of the session with its prompt and the files it
 * changed, then how to rewind to it (code and conversation, conversation only, code only), then,
 * when files changed since panto recorded them, whether to overwrite them. Changes nothing: the
 * caller applies the choice.
 */
export async function runRewindDialog(
  sessionPath: string,
  pantoHome: string,
  io: RewindDialogIo,
): Promise<RewindChoice> {
  const points = await listRewindPoints(sessionPath).catch(() => []);
  if (points.length === 0) return { type: "empty" };
  const items: ListItem<RewindTarget>[] = points.map((point) => ({
    text: describeRewindPoint(point),
    value: point.kind === "turn" ? { turn: point.turn } : { undo: true },
    disabled: point.kind === "rewind" && !point.latest,
  }));
  const target = await pickWithKeys(
    "Rewind to before which turn? ↑/↓ choose, Enter picks, Esc cancels",
    items,
    io.surface,
  );
  if (target === undefined) return { type: "cancelled" };
  const both = await prepareRewind({ sessionPath, pantoHome, target, scope: "both" });
  const ways = scopeItems(both);
  const first = ways.findIndex((item) => item.disabled !== true);
  const scope = await pickWithKeys("How? ↑/↓ choose, Enter rewinds, Esc cancels", ways, io.surface, first);
  if (scope === undefined) return { type: "cancelled" };
  const prepared = scope === "both" ? both : await prepareRewind({ sessionPath, pantoHome, target, scope });
  const conflicts = plannedActions(prepared).filter((action) => action.outcome === "conflict");
  const force =
    conflicts.length > 0 &&
    (await io.confirm(
      `${conflicts.length} file${conflicts.length === 1 ? "" : "s"} changed since panto recorded ${conflicts.length === 1 ? "it" : "them"} (${conflicts.map((action) => action.path).join(", ")}). Overwrite ${conflicts.length === 1 ? "it" : "them"} too? [y/N] `,
    ));
  return { type: "chosen", prepared, force };
}
