import { isPathProblem } from "../../core/index.js";
import { readSessionUsage } from "../../session/index.js";
import { type CommandOutcome, failed, info, usageError } from "../command-outcome.js";
import { describeSandbox, formatTokens, plural } from "../format-text.js";
import type { CommandHandler, RunContext, RuntimeCommand } from "../run-context.js";
import { readSubagentUsage } from "../subagent-usage.js";
import { BUILT_IN_COMMANDS, slashHelpText } from "./built-in-commands.js";
import {
  describeCompactionHistory,
  runCompactCommand,
  runPin,
  runPins,
  runSummary,
  runUncompact,
  runUnpin,
} from "./compaction-commands.js";
import { describeContext } from "./describe-context.js";
import { describeCost } from "./describe-cost.js";
import { describeMcp } from "./describe-mcp.js";
import { describeNextRequest } from "./describe-request.js";
import { describeSkills } from "./describe-skills.js";
import { runHandoff } from "./handoff-command.js";
import { runInitCommand } from "./init-command.js";
import { describeLastToolOutput } from "./last-tool-output.js";
import { runModelCommand } from "./model-command.js";
import { runForkCommand, runRewindCommand } from "./rewind-commands.js";

/** The handler of each built-in command, by name (built-in-commands.ts lists them). */
const HANDLERS: Record<string, CommandHandler> = {
  compact: runCompactCommand,
  uncompact: runUncompact,
  pin: runPin,
  pins: runPins,
  unpin: runUnpin,
  summary: runSummary,
  init: runInitCommand,
  handoff: runHandoff,
  context: async (run) =>
    info(
      "context",
      `${describeNextRequest(run)}\n\n${describeContext(run.agent.effectiveContext(), { requestTokens: run.agent.contextTokens() })}`,
    ),
  cost: async (run) => {
    const own = await readSessionUsage(run.session.path);
    return info("cost", describeCost(own, run.prices, await readSubagentUsage(run)));
  },
  model: runModelCommand,
  session: async (run) =>
    info("session", `${describeSession(run)}\n${await describeCompactionHistory(run.session)}`),
  tools: async (run) => info("tools", describeTools(run)),
  last: async (run) => info("last", describeLastToolOutput(run.agent.effectiveContext())),
  mcp: async (run) => info("mcp", describeMcp(run.mcp?.status())),
  skills: async (run) => info("skills", describeSkills(run.skills)),
  export: runExportCommand,
  rewind: runRewindCommand,
  fork: runForkCommand,
  clear: async (run) => {
    await run.startNewSession();
    return { type: "session-cleared", path: run.session.path };
  },
  help: async (run) => info("help", slashHelpText(run.commands)),
  exit: async () => ({ type: "exit" }),
};

/** The built-in commands with their handlers, in `/help` order: what every run's registry starts from. */
export function builtInCommands(): RuntimeCommand[] {
  return BUILT_IN_COMMANDS.map((command) => {
    const execute = HANDLERS[command.name];
    if (execute === undefined) throw new Error(`the built-in command /${command.name} has no handler`);
    return { ...command, execute };
  });
}

/** `/export [FILE]`: the exporter is loaded only when asked for. */
async function runExportCommand(run: RunContext, args: string): Promise<CommandOutcome> {
  if (args === "-") return usageError("/export writes a file; to write to stdout use panto export -o -");
  if (!run.session.hasFile) return usageError("nothing to export yet: this session has no entries");
  const { exportToTarget } = await import("../export-to-target.js");
  const request = { sessionPath: run.session.path, full: false, cwd: run.cwd, redact: run.redact };
  try {
    const result = await exportToTarget(args === "" ? request : { ...request, output: args });
    return { type: "exported", target: result.target, entries: result.entries };
  } catch (error) {
    if (isPathProblem(error)) return usageError(error.message);
    return failed(
      "failure",
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
    `  sandbox:  ${describeSandbox(run.sandbox)}`,
  ].join("\n");
}

function describeTools(run: RunContext): string {
  const granted = run.approvals.granted();
  const width = Math.max(...run.tools.map((tool) => tool.definition.name.length));
  return run.tools
    .map((tool) => {
      const permission =
        tool.kind === "read"
          ? "runs freely"
          : run.toolSandbox !== undefined && tool.confinable !== undefined
            ? run.toolSandbox.policy.askCommands
              ? "runs in the sandbox, asked each time (sandbox.ask_commands); leaving it asks every time"
              : "runs in the sandbox without asking; leaving it asks every time"
            : run.approvals.allowAll
              ? "allowed by --allow-tools (or the allow-all mode)"
              : run.approvals.mode === "accept-edits" && tool.kind === "write"
                ? "allowed by the accept-edits mode"
                : granted.includes(tool.definition.name)
                  ? "allowed for this session (you answered a)"
                  : "needs permission (asked interactively; --allow-tools in print mode)";
      return `  ${tool.definition.name.padEnd(width)}  ${tool.kind.padEnd(5)}  ${permission}`;
    })
    .join("\n");
}
