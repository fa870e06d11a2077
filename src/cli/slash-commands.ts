import { estimateContextTokens } from "../compaction/index.js";
import { isPantoError } from "../core/index.js";
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
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "./exit-status.js";
import { formatCompactionReport, formatTokens, plural } from "./render.js";
import { findSlashCommand, formatSlashCommandList } from "./slash-command-table.js";
import { failed, ok, type SlashIo, type SlashResult } from "./slash-result.js";
import { describeMcp } from "./start-mcp.js";
import type { RunContext } from "./start-run.js";

export type { SlashIo, SlashResult } from "./slash-result.js";

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
  context: async (run) =>
    ok(describeContext(run.agent.effectiveContext(), { requestTokens: run.agent.contextTokens() })),
  model: runModel,
  session: async (run) => ok(`${describeSession(run)}\n${await describeCompactionHistory(run.session)}`),
  tools: async (run) => ok(describeTools(run)),
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
  return `${formatSlashCommandList()}\n\nAnything else is sent to the model. In the terminal a trailing \\ continues a line, Tab completes commands, Ctrl-C cancels a request and Ctrl-D exits.`;
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
    return Promise.resolve(
      failed(EXIT_USAGE, "usage", `unknown command /${command.name}; /help lists the commands`),
    );
  return handler(run, command.args, signal, io);
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
  const { exportToTarget } = await import("./run-export.js");
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

async function runModel(run: RunContext, args: string): Promise<SlashResult> {
  if (args === "") return ok(`Model: ${run.agent.model}`);
  try {
    run.agent.setModel(args);
  } catch (error) {
    if (!isPantoError(error)) throw error;
    return failed(EXIT_USAGE, error.code, error.message);
  }
  return ok(`Model: ${run.agent.model}`);
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

function describeTools(run: RunContext): string {
  const width = Math.max(...run.tools.map((tool) => tool.definition.name.length));
  return run.tools
    .map((tool) => {
      const permission =
        tool.kind === "read"
          ? "runs freely"
          : run.allowTools
            ? "allowed by --allow-tools"
            : "needs permission (asked interactively; --allow-tools in print mode)";
      return `  ${tool.definition.name.padEnd(width)}  ${tool.kind.padEnd(5)}  ${permission}`;
    })
    .join("\n");
}
