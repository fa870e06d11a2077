import { type CommandInfo, CommandRegistry } from "../command-registry.js";

/**
 * The built-in slash commands, as listed: names, arguments and descriptions, in `/help` order.
 * Nothing heavy is imported here, so `--help` stays fast; their handlers are in
 * built-in-handlers.ts.
 */
export const BUILT_IN_COMMANDS: readonly CommandInfo[] = [
  {
    name: "compact",
    aliases: [],
    args: "[--preview] [--force] [instructions]",
    summary:
      "summarise older turns into a compaction block now; instructions are added to the compaction prompt; --force summarises all but the latest turn even when everything fits the keep-verbatim budget; --preview shows the plan only (no model call, nothing written)",
  },
  {
    name: "uncompact",
    aliases: [],
    args: "",
    summary: "undo the compaction in effect (repeat to walk back one compaction at a time)",
  },
  {
    name: "unclear",
    aliases: [],
    args: "",
    summary:
      "take back the latest clearing of old tool results (their outputs are whole in the context again) and pause clearing until the context has grown by clearing.min_reclaim_tokens",
  },
  {
    name: "summary",
    aliases: [],
    args: "[edit [TEXT] | discard]",
    summary:
      "print the summary in effect and any prepared ahead (pending); edit opens it in $VISUAL/$EDITOR and stores your text, edit TEXT stores TEXT (no model call); discard drops the pending one",
    needs: "editor",
  },
  {
    name: "pin",
    aliases: [],
    args: "TEXT",
    summary: "pin a note the model sees word for word from now on, through every compaction",
  },
  { name: "pins", aliases: [], args: "", summary: "list the pinned notes with their numbers" },
  { name: "unpin", aliases: [], args: "N", summary: "remove pinned note N" },
  {
    name: "todo",
    aliases: ["todos"],
    args: "",
    summary:
      "show the task list the model keeps with the todo tool: each item's status, its evidence's latest run or change, and a flag on a completed item the record contradicts",
  },
  {
    name: "plan",
    aliases: [],
    args: "[on|off]",
    summary:
      "plan mode (toggle, on or off): the model reads, searches, runs read-only commands and keeps the task list, but write and edit are refused; off returns to the mode before it, the plan's task list in force (Shift+Tab in the terminal)",
  },
  {
    name: "tasks",
    aliases: ["bashes"],
    args: "[kill ID]",
    summary:
      "list the background commands (bash run_in_background): id, running or how it ended, runtime, output size, command; kill ID stops one and every process it started",
  },
  {
    name: "handoff",
    aliases: [],
    args: "[--edit] [GOAL]",
    summary:
      "draft a fresh session's first prompt for GOAL (state, decisions, files, commands, open problems, pins, ledger), review it, go on there; --edit: write it yourself; -p starts it only with --yes",
  },
  {
    name: "init",
    aliases: [],
    args: "[notes]",
    summary:
      "ask the model to write AGENTS.md for this project, or update the one there; in a git project also adds .panto/config.local.json to .gitignore",
  },
  {
    name: "context",
    aliases: [],
    args: "",
    summary:
      "the next request part by part (system prompt, tool definitions, summary, pinned notes, messages, tool results, cleared tool outputs) with sizes, then turn by turn",
  },
  {
    name: "cost",
    aliases: [],
    args: "",
    summary:
      'tokens per model for the whole session (compaction and subagents apart, and what clearing old tool outputs saved), priced where config "prices" says',
  },
  {
    name: "model",
    aliases: [],
    args: "[provider/model]",
    summary:
      "list the models the provider offers and those configured, or switch (checked against that list; kept in the session)",
  },
  {
    name: "session",
    aliases: [],
    args: "",
    summary:
      "show the session file, id, entries, context size and every compaction (failed and undone ones too)",
  },
  { name: "tools", aliases: [], args: "", summary: "list the tools and whether they need permission" },
  {
    name: "permissions",
    aliases: [],
    args: "[remove N|RULE]",
    summary:
      "the permission rules in force (deny, ask, allow), numbered, each with the file and key it came from; remove N (or the rule as written) takes one out of force at once and out of its file (user config, .panto/config.json, .panto/config.local.json) or this session; managed rules cannot be removed",
  },
  {
    name: "last",
    aliases: [],
    args: "",
    summary: "show the last tool output whole (the transcript shows one line)",
  },
  { name: "mcp", aliases: [], args: "", summary: "list the MCP servers, their state and their tools" },
  {
    name: "rewind",
    aliases: [],
    args: "[TURN] [flags]",
    summary:
      "take the files and the conversation back to before turn TURN (--code or --conversation: only those; --dry-run: show what would change; --force: overwrite files changed since; --undo: take the latest rewind back); alone in a terminal, or Esc Esc: a list of the turns and the files each changed",
  },
  {
    name: "fork",
    aliases: [],
    args: "[TURN]",
    summary:
      "continue in a new session started from this one after turn TURN (default: all of it); this one stays as it is",
  },
  {
    name: "skills",
    aliases: [],
    args: "",
    summary:
      "list the Agent Skills found (SKILL.md folders): each name and description the model sees, and its file",
  },
  {
    name: "export",
    aliases: [],
    args: "[file]",
    summary: "write this session as an HTML page with its compaction timeline (.md or .json by extension)",
  },
  {
    name: "clear",
    aliases: ["new"],
    args: "",
    summary: "start a new, empty session file (the old one stays)",
    // A new session belongs at a prompt that goes on; an editor starts a new thread instead.
    needs: "terminal",
  },
  { name: "help", aliases: ["?"], args: "", summary: "list the slash commands" },
  { name: "exit", aliases: ["quit"], args: "", summary: "leave panto", needs: "terminal" },
];

/** The built-in commands as a registry of their infos alone: `panto --help`, and `/help` before any setup. */
export function builtInCommandInfo(): CommandRegistry {
  return new CommandRegistry(BUILT_IN_COMMANDS);
}

/** The text of `/help`. */
export function slashHelpText(commands: CommandRegistry<CommandInfo>): string {
  return `${commands.formatList()}\n\nAnything else is sent to the model. In the terminal a paste is one prompt (sent on Enter), Alt-Enter or a trailing \\ continues a line, Tab completes commands, Ctrl-C cancels a request and Ctrl-D exits.`;
}
