import { SandboxError } from "./sandbox-error.js";

/** What starting and checking a command needs (command-parts.ts), once the first command loaded it. */
let commandParts: typeof import("./command-parts.js") | undefined;

/**
 * Loads what starting a command needs; `prepare` may be called once this has resolved. `ready`
 * and `runConfined` call it, so a run that starts no command never loads the limits and the git walk.
 */
export async function loadCommandParts(): Promise<void> {
  commandParts ??= await import("./command-parts.js");
}

/** The command code `loadCommandParts` loaded; an internal error before it has. */
export function loadedParts(): typeof import("./command-parts.js") {
  if (commandParts === undefined)
    throw new SandboxError("internal: a command was prepared before the sandbox's command code was loaded");
  return commandParts;
}
