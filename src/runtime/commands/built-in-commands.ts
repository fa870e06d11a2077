/**
 * The slash commands, in one table that drives `/help`, `panto --help` and Tab completion. Only
 * names and descriptions live here (no imports), so `--help` stays fast; the handlers are in
 * slash-commands.ts.
 */
export interface SlashCommandInfo {
  name: string;
  aliases: readonly string[];
  /** Argument synopsis, e.g. "[instructions]". */
  args: string;
  summary: string;
}

export const SLASH_COMMAND_TABLE: readonly SlashCommandInfo[] = [
  {
    name: "compact",
    aliases: [],
    args: "[--preview] [instructions]",
    summary:
      "summarise older turns into a compaction block now; instructions are added to the compaction prompt; --preview shows the plan only (no model call, nothing written)",
  },
  {
    name: "uncompact",
    aliases: [],
    args: "",
    summary: "undo the compaction in effect (repeat to walk back one compaction at a time)",
  },
  {
    name: "summary",
    aliases: [],
    args: "[edit]",
    summary:
      "print the summary in effect; edit opens it in $VISUAL/$EDITOR and stores your text (no model call)",
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
    name: "init",
    aliases: [],
    args: "[notes]",
    summary: "ask the model to write AGENTS.md for this project, or update the one there",
  },
  {
    name: "context",
    aliases: [],
    args: "",
    summary:
      "the next request part by part (system prompt, tool definitions, summary, pinned notes, messages, tool results) with sizes, then turn by turn",
  },
  {
    name: "cost",
    aliases: [],
    args: "",
    summary: 'tokens per model for the whole session (compaction apart), priced where config "prices" says',
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
    name: "last",
    aliases: [],
    args: "",
    summary: "show the last tool output whole (the transcript shows one line)",
  },
  { name: "mcp", aliases: [], args: "", summary: "list the MCP servers, their state and their tools" },
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
  },
  { name: "help", aliases: ["?"], args: "", summary: "list the slash commands" },
  { name: "exit", aliases: ["quit"], args: "", summary: "leave panto" },
];

/** Finds a command by name or alias (without the leading slash). */
export function findSlashCommand(name: string): SlashCommandInfo | undefined {
  const wanted = name.toLowerCase();
  return SLASH_COMMAND_TABLE.find((command) => command.name === wanted || command.aliases.includes(wanted));
}

/** The aligned list of commands shown by `/help` and `panto --help`. */
export function formatSlashCommandList(indent = "  "): string {
  const rows = SLASH_COMMAND_TABLE.map((command) => {
    const names = [command.name, ...command.aliases].map((name) => `/${name}`).join(", ");
    return { left: command.args === "" ? names : `${names} ${command.args}`, summary: command.summary };
  });
  const width = Math.max(...rows.map((row) => row.left.length));
  return rows.map((row) => `${indent}${row.left.padEnd(width)}  ${row.summary}`).join("\n");
}

/** Tab completion for the interactive prompt: command names for a line that starts with "/". */
export function completeSlashCommand(line: string): [string[], string] {
  if (!line.startsWith("/") || /\s/.test(line)) return [[], line];
  const names = SLASH_COMMAND_TABLE.flatMap((command) => [command.name, ...command.aliases]).map(
    (name) => `/${name}`,
  );
  const hits = names.filter((name) => name.startsWith(line.toLowerCase()));
  return [hits.map((name) => (hits.length === 1 ? `${name} ` : name)), line];
}

/**
 * Splits "/compact keep the bug list" into the command and its arguments. Returns undefined for
 * text that is not a slash command; a path such as "/usr/bin/env is missing" is ordinary text.
 */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([a-zA-Z?][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (match === null) return undefined;
  return { name: (match[1] ?? "").toLowerCase(), args: (match[2] ?? "").trim() };
}
