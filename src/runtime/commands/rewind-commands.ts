import { isRewindError, listRewindPoints, type RewindTarget } from "../../checkpoints/index.js";
import type { RewindScope } from "../../session/index.js";
import { type CommandOutcome, failed, info, usageError } from "../command-outcome.js";
import { type MakeRewindOptions, makeRewind, type RewindResult, rewindSession } from "../rewind-session.js";
import type { RunContext } from "../run-context.js";

/** `/rewind` arguments: a turn (or --undo), what to take back, a dry run, overwriting conflicts. */
interface RewindArgs {
  target?: RewindTarget;
  scope: RewindScope;
  dryRun: boolean;
  force: boolean;
}

const FLAGS: Record<string, (args: RewindArgs) => void> = {
  "--code": (args) => {
    args.scope = "code";
  },
  "--conversation": (args) => {
    args.scope = "conversation";
  },
  "--both": (args) => {
    args.scope = "both";
  },
  "--dry-run": (args) => {
    args.dryRun = true;
  },
  "--force": (args) => {
    args.force = true;
  },
  "--undo": (args) => {
    args.target = { undo: true };
  },
};

/** Parses "/rewind 3 --code --dry-run"; a problem comes back as text. */
export function parseRewindArgs(text: string): RewindArgs | string {
  const args: RewindArgs = { scope: "both", dryRun: false, force: false };
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    const flag = FLAGS[word];
    if (flag !== undefined) flag(args);
    else if (/^\d+$/.test(word) && Number(word) >= 1 && args.target === undefined)
      args.target = { turn: Number(word) };
    else
      return `/rewind takes a turn number and --code, --conversation, --both, --dry-run, --force or --undo (not "${word}")`;
  }
  return args;
}

/** A rewind made (or worked out) in the run's session; a blocked code rewind is a failure saying why. */
function outcomeOf(result: RewindResult): CommandOutcome {
  if (result.blocked !== undefined) return failed("failure", "checkpoints_unavailable", result.blocked);
  const { prepared, report } = result;
  return report === undefined ? { type: "rewound", prepared } : { type: "rewound", prepared, report };
}

/** How `/rewind` makes a rewind: in the run's own session. */
function inRun(run: RunContext, dryRun: boolean, force: boolean): MakeRewindOptions {
  return { pantoHome: run.pantoHome, dryRun, force, withSession: (use) => use(run.session) };
}

/** `/rewind` alone: the front-end's list when it has one, else the turns as text. */
async function chooseOrList(run: RunContext): Promise<CommandOutcome> {
  const choose = run.frontEnd.chooseRewind;
  if (choose === undefined)
    return { type: "rewind-points", points: await listRewindPoints(run.session.path) };
  const choice = await choose(run.session.path, run.pantoHome);
  if (choice.type === "empty") return info("rewind", "Nothing to rewind: the session has no turns yet.");
  if (choice.type === "cancelled") return info("rewind", "Rewind cancelled; nothing was changed.");
  return outcomeOf(await makeRewind(choice.prepared, inRun(run, false, choice.force)));
}

/**
 * `/rewind [TURN] [--code|--conversation|--both] [--dry-run] [--force] [--undo]`: takes the code,
 * the conversation or both back to before turn TURN (or undoes the latest rewind).
 */
export async function runRewindCommand(run: RunContext, text: string): Promise<CommandOutcome> {
  const args = parseRewindArgs(text);
  if (typeof args === "string") return usageError(args);
  if (!run.session.hasFile) return info("rewind", "Nothing to rewind: the session has no turns yet.");
  try {
    if (args.target === undefined) return await chooseOrList(run);
    const { target, scope } = args;
    const made = { sessionPath: run.session.path, target, scope, ...inRun(run, args.dryRun, args.force) };
    return outcomeOf(await rewindSession(made));
  } catch (error) {
    if (isRewindError(error) && error.kind === "usage") return usageError(error.message);
    throw error;
  }
}

/** `/fork [TURN]`: continue in a new session started from this one after turn TURN (default: all of it). */
export async function runForkCommand(run: RunContext, text: string): Promise<CommandOutcome> {
  const word = text.trim();
  if (word !== "" && !(/^\d+$/.test(word) && Number(word) >= 1))
    return usageError(`/fork takes a turn number (the fork starts after it), not "${word}"`);
  if (!run.session.hasFile) return usageError("nothing to fork yet: this session has no entries");
  try {
    return { type: "forked", fork: await run.forkSession(word === "" ? undefined : Number(word)) };
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}
