import { nearestNames } from "../core/did-you-mean.js";

/**
 * What a command needs from the front-end running it. "terminal": it only means something at an
 * interactive prompt (`/exit`, `/clear`), and an editor does not offer it. "editor": a form of it opens the user's
 * editor (`/summary edit`), which fails with a clear error where the front-end has none.
 */
export type CommandNeed = "terminal" | "editor";

/** A slash command as users see it listed: `/help`, `panto --help`, Tab completion, an editor's menu. */
export interface CommandInfo {
  /** Without the leading slash, lower case. */
  name: string;
  aliases: readonly string[];
  /** Argument synopsis, e.g. "[instructions]"; "" for none. */
  args: string;
  summary: string;
  needs?: CommandNeed;
}

/**
 * The slash commands of a run, in the order `/help` lists them. Built at run start from the
 * built-in commands, and open to more (custom commands) through `add`; `/help`, `--help`, Tab
 * completion and did-you-mean all read it. Holds command infos alone where no run exists (`--help`).
 */
export class CommandRegistry<C extends CommandInfo = CommandInfo> {
  readonly #commands: C[] = [];

  constructor(commands: readonly C[] = []) {
    for (const command of commands) this.add(command);
  }

  /** Adds a command; a name or alias already taken is refused with an error naming it. */
  add(command: C): void {
    const taken = [command.name, ...command.aliases].find((name) => this.find(name) !== undefined);
    if (taken !== undefined) throw new Error(`/${taken} is already a command`);
    this.#commands.push(command);
  }

  list(): readonly C[] {
    return this.#commands;
  }

  /** Finds a command by name or alias (without the leading slash, any case). */
  find(name: string): C | undefined {
    const wanted = name.toLowerCase();
    return this.#commands.find((command) => command.name === wanted || command.aliases.includes(wanted));
  }

  /** Every name and alias, without slashes. */
  names(): string[] {
    return this.#commands.flatMap((command) => [command.name, ...command.aliases]);
  }

  /** "unknown command /compat; did you mean /compact? /help lists the commands" */
  unknownCommandMessage(name: string): string {
    const [nearest] = nearestNames(name, this.names(), { limit: 1 });
    const guess = nearest === undefined ? "" : ` did you mean /${nearest}?`;
    return `unknown command /${name};${guess} /help lists the commands`;
  }

  /** Tab completion: command names for a line that starts with "/" and has no space yet. */
  complete(line: string): [string[], string] {
    if (!line.startsWith("/") || /\s/.test(line)) return [[], line];
    const hits = this.names()
      .map((name) => `/${name}`)
      .filter((name) => name.startsWith(line.toLowerCase()));
    return [hits.map((name) => (hits.length === 1 ? `${name} ` : name)), line];
  }

  /** The aligned list of commands shown by `/help` and `panto --help`. */
  formatList(indent = "  "): string {
    const rows = this.#commands.map((command) => {
      const names = [command.name, ...command.aliases].map((name) => `/${name}`).join(", ");
      return { left: command.args === "" ? names : `${names} ${command.args}`, summary: command.summary };
    });
    const width = Math.max(...rows.map((row) => row.left.length));
    return rows.map((row) => `${indent}${row.left.padEnd(width)}  ${row.summary}`).join("\n");
  }
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
