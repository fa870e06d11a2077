import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "../../cli/exit-status.js";
import { estimateContextTokens } from "../../compaction/index.js";
import { readSessionUsage } from "../../session/index.js";
import { formatCompactionReport, formatTokens, plural } from "../format-text.js";
import { describeMcp } from "../setup/start-mcp.js";
import type { RunContext } from "../start-run.js";
import { findSlashCommand, formatSlashCommandList, SLASH_COMMAND_TABLE } from "./built-in-commands.js";
import { failed, ok, type SlashIo, type SlashResult } from "./command-outcome.js";
import {
  describeCompactionHistory,
  describePins,
  isPreview,
  runPin,
  runPreview,
  runSummary,
  runUncompact,
  runUnpin,
} from "./compaction-commands.js";
import { describeContext } from "./describe-context.js";
import { describeCost } from "./describe-cost.js";
import { describeNextRequest } from "./describe-request.js";
import { nearestNames } from "./did-you-mean.js";
import { runInitCommand } from "./init-command.js";
import { describeLastToolOutput } from "./last-tool-output.js";
import { runModelCommand } from "./model-command.js";

export type { SlashIo, SlashResult } from "./command-outcome.js";

type Handler = (
  run: RunContext,
  args: string,
  signal: AbortSignal | undefined,
  io: SlashIo,
) => Promise<SlashResult>;

const HANDLERS: Record<string, Handler> = {
  compact: (run, args, signal) => (isPreview(args) ? runPreview(run, args) : runCompact(run, args, signal)),
  uncompact: runUncompact,
  pin: runPin,
  pins: async (run) => ok(describePins(run)),
  unpin: runUnpin,
  summary: runSummary,
  init: (run, args, signal) => runInitCommand(run, args, signal),
  context: async (run) =>
    ok(
      `${describeNextRequest(run)}\n\n${describeContext(run.agent.effectiveContext(), { requestTokens: run.agent.contextTokens() })}`,
    ),
  cost: async (run) => ok(describeCost(await readSessionUsage(run.session.path), run.prices)),
  model: (run, args, signal) => runModelCommand(run, args, signal),
  session: async (run) => ok(`${describeSession(run)}\n${await describeCompactionHistory(run.session)}`),
  tools: async (run, _args, _signal, io) => ok(describeTools(run, io.grantedTools?.() ?? [])),
  last: async (run) => ok(describeLastToolOutput(run.agent.effectiveContext())),
  mcp: async (run) => ok(describeMcp(run.mcp?.status())),
  export: runExportCommand,
  clear: async (run) => {
    await run.startNewSession();
    return ok(`Started a new session: ${run.session.path}`);
  },
  help: async () => ok(slashHelpText()),
  exit: async () => ({ exitCode: EXIT_OK, exit: true, output: "" }),
};

/** The text of `/help`. */
export function slashHelpText(): string {
  return `${formatSlashCommandList()}\n\nAnything else is sent to the model. In the terminal a paste is one prompt (sent on Enter), Alt-Enter or a trailing \\ continues a line, Tab completes commands, Ctrl-C cancels a request and Ctrl-D exits.`;
}

/** Runs "/name args". An unknown command is a usage error (exit status 2 in print mode). */
export function runSlashCommand(
  run: RunContext,
  command: { name: string; args: string },
  signal: AbortSignal | undefined,
  io: SlashIo,
): Promise<SlashResult> {
  const info = findSlashCommand(command.name);
  const handler = info === undefined ? undefined : HANDLERS[info.name];
  if (handler === undefined)
    return Promise.resolve(failed(EXIT_USAGE, "usage", unknownCommandMessage(command.name)));
  return handler(run, command.args, signal, io);
}

function unknownCommandMessage(name: string): string {
  const names = SLASH_COMMAND_TABLE.flatMap((command) => [command.name, ...command.aliases]);
  const [nearest] = nearestNames(name, names, { limit: 1 });
  const guess = nearest === undefined ? "" : ` did you mean /${nearest}?`;
  return `unknown command /${name};${guess} /help lists the commands`;
}

async function runCompact(
  run: RunContext,
  args: string,
  signal: AbortSignal | undefined,
): Promise<SlashResult> {
  const before = estimateContextTokens(run.agent.effectiveContext());
  const outcome = await run.agent.compact(
    args === "" ? undefined : args,
    signal === undefined ? {} : { signal },
  );
  switch (outcome.type) {
    case "compacted":
      return ok(
        formatCompactionReport(outcome.record, before, estimateContextTokens(run.agent.effectiveContext())),
      );
    case "nothing-to-summarise":
      return ok(`Nothing to compact: ${outcome.reason}. No model was called.`);
    case "failed": {
      if (outcome.error.code === "aborted")
        return failed(EXIT_INTERRUPTED, "aborted", "compaction cancelled; the session is unchanged");
      // No attempt: refused before any model call (a PreCompact hook); nothing was recorded.
      if (outcome.attempts.length === 0)
        return failed(EXIT_FAILURE, outcome.error.code, `${outcome.error.message}; the context is unchanged`);
      const attempts = outcome.attempts.map((attempt) => `${attempt.model}: ${attempt.error.message}`);
      return failed(
        EXIT_FAILURE,
        outcome.error.code,
        `compaction failed; the context is unchanged (the failure is recorded in the session).\n  ${attempts.join("\n  ")}`,
      );
    }
  }
}

/** `/export [FILE]`: the exporter is loaded only when asked for. */
async function runExportCommand(run: RunContext, args: string): Promise<SlashResult> {
  if (args === "-")
    return failed(EXIT_USAGE, "usage", "/export writes a file; to write to stdout use panto export -o -");
  if (!run.session.hasFile)
    return failed(EXIT_USAGE, "usage", "nothing to export yet: this session has no entries");
  const { exportToTarget } = await import("../../cli/sessions/run-export.js");
  const request = { sessionPath: run.session.path, full: false, cwd: run.cwd, redact: run.redact };
  try {
    const result = await exportToTarget(args === "" ? request : { ...request, output: args }, process.stdout);
    return ok(`Exported ${plural(result.entries, "entry", "entries")} to ${result.target}`);
  } catch (error) {
    return failed(
      EXIT_FAILURE,
      "export",
      `export failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function describeSession(run: RunContext): string {
  const context = run.agent.effectiveContext();
  const { header } = run.session;
  return [
    `Session: ${run.session.path}`,
    `  id:       ${header.id} (created ${header.created})`,
    `  entries:  ${plural(run.session.activeEntries().length, "entry", "entries")}${context.compaction === undefined ? " (no compaction yet)" : " since the latest compaction"}`,
    `  context:  ${context.compaction === undefined ? "no compaction block" : "a compaction block"} + ${plural(context.messages.length, "message")}, ~${formatTokens(run.agent.contextTokens())} tokens with the system prompt`,
    `  model:    ${run.agent.model}`,
  ].join("\n");
}

function describeTools(run: RunContext, granted: readonly string[]): string {
  const width = Math.max(...run.tools.map((tool) => tool.definition.name.length));
  return run.tools
    .map((tool) => {
      const permission =
        tool.kind === "read"
          ? "runs freely"
          : run.allowTools
            ? "allowed by --allow-tools"
            : granted.includes(tool.definition.name)
              ? "allowed for this session (you answered a)"
              : "needs permission (asked interactively; --allow-tools in print mode)";
      return `  ${tool.definition.name.padEnd(width)}  ${tool.kind.padEnd(5)}  ${permission}`;
    })
    .join("\n");
}
