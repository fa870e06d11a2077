import { isPathProblem } from "../../core/index.js";
import { readClearingSavings, readSessionUsage } from "../../session/index.js";
import { type CommandOutcome, failed, info, usageError } from "../command-outcome.js";
import { describeSandbox, formatRequestTokens, plural } from "../format-text.js";
import type { CommandHandler, RunContext, RuntimeCommand } from "../run-context.js";
import { readSubagentUsage } from "../subagent-usage.js";
import { BUILT_IN_COMMANDS, slashHelpText } from "./built-in-commands.js";

/**
 * A handler whose code is imported on its first call: the registry (names, help) is built at every
 * start, but a run that never types /rewind never loads checkpoints, nor /handoff its drafting.
 */
function lazy(load: () => Promise<CommandHandler>): CommandHandler {
  return async (run, args, signal) => (await load())(run, args, signal);
}

const compaction = () => import("./compaction-commands.js");
const rewinds = () => import("./rewind-commands.js");

/** The handler of each built-in command, by name (built-in-commands.ts lists them). */
const HANDLERS: Record<string, CommandHandler> = {
  compact: lazy(async () => (await compaction()).runCompactCommand),
  uncompact: lazy(async () => (await compaction()).runUncompact),
  unclear: lazy(async () => (await compaction()).runUnclear),
  pin: lazy(async () => (await compaction()).runPin),
  pins: lazy(async () => (await compaction()).runPins),
  unpin: lazy(async () => (await compaction()).runUnpin),
  todo: lazy(async () => (await import("./todo-command.js")).runTodoCommand),
  plan: lazy(async () => (await import("./plan-command.js")).runPlanCommand),
  tasks: lazy(async () => (await import("./tasks-command.js")).runTasksCommand),
  summary: lazy(async () => (await compaction()).runSummary),
  init: lazy(async () => (await import("./init-command.js")).runInitCommand),
  handoff: lazy(async () => (await import("./handoff-command.js")).runHandoff),
  context: async (run) => {
    const [{ describeNextRequest }, { describeContext }] = await Promise.all([
      import("./describe-request.js"),
      import("./describe-context.js"),
    ]);
    const context = describeContext(run.agent.effectiveContext(), {
      requestSize: run.agent.contextSize(),
    });
    return info("context", `${await describeNextRequest(run)}\n\n${context}`);
  },
  cost: async (run) => {
    const { describeClearingSavings, describeCost } = await import("./describe-cost.js");
    const own = await readSessionUsage(run.session.path);
    const cost = describeCost(own, run.prices, await readSubagentUsage(run));
    return info("cost", `${cost}${describeClearingSavings(await readClearingSavings(run.session.path))}`);
  },
  model: lazy(async () => (await import("./model-command.js")).runModelCommand),
  session: async (run) => {
    const history = await (await compaction()).describeCompactionHistory(run.session);
    return info("session", `${describeSession(run)}\n${history}`);
  },
  tools: async (run) => info("tools", describeTools(run)),
  permissions: lazy(async () => (await import("./permissions-command.js")).runPermissionsCommand),
  last: async (run) => {
    const { describeLastToolOutput } = await import("./last-tool-output.js");
    return info("last", describeLastToolOutput(run.agent.effectiveContext()));
  },
  mcp: async (run) => info("mcp", (await import("./describe-mcp.js")).describeMcp(run.mcp?.status())),
  skills: async (run) => info("skills", (await import("./describe-skills.js")).describeSkills(run.skills)),
  export: runExportCommand,
  rewind: lazy(async () => (await rewinds()).runRewindCommand),
  fork: lazy(async () => (await rewinds()).runForkCommand),
  clear: async (run) => {
    if (run.frontEnd.oneShot === true)
      return info(
        "clear",
        `Nothing to clear: this run ends with the command, and a run without -c, -r or --session starts a new session anyway.${run.session.hasFile ? ` ${run.session.path} is unchanged.` : ""}`,
      );
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
    `  context:  ${context.compaction === undefined ? "no compaction block" : "a compaction block"} + ${plural(context.messages.length, "message")}, next request ${formatRequestTokens(run.agent.contextSize())} (system prompt and tools included)`,
    `  model:    ${run.agent.model}`,
    `  sandbox:  ${describeSandbox(run.sandbox)}`,
  ].join("\n");
}

function describeTools(run: RunContext): string {
  const granted = run.approvals.granted();
  const width = Math.max(...run.tools.map((tool) => tool.definition.name.length));
  const lines = run.tools
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
              : run.approvals.workingMode === "accept-edits" && tool.kind === "write"
                ? "allowed by the accept-edits mode"
                : granted.includes(tool.definition.name)
                  ? "allowed for this session (you answered a)"
                  : "needs permission (asked interactively; --allow-tools in print mode)";
      return `  ${tool.definition.name.padEnd(width)}  ${tool.kind.padEnd(5)}  ${permission}`;
    })
    .join("\n");
  // The list is the same in every mode; plan mode decides when a call runs.
  return run.approvals.mode === "plan"
    ? `Plan mode is on: write, edit and tools that may change things are refused, bash runs read-only (/plan off leaves it).\n${lines}`
    : lines;
}
