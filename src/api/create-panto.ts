import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { PantoConfig } from "../config/index.js";
import type { PantoOptions } from "./panto-options.js";
import type { PantoSession } from "./panto-session.js";

/** Sessions made the way the CLI makes them, in this process. */
export interface Panto {
  /** Starts a new session in the project of `cwd`. */
  startSession(): Promise<PantoSession>;
  /** Continues a session of the project: an id prefix, a file name prefix or a path (as `panto -r` takes). */
  resumeSession(idOrPath: string): Promise<PantoSession>;
}

/** Where given settings are said to come from in messages (a config problem names it as a file). */
const GIVEN_CONFIG = "createPanto({ config })";

/**
 * panto as a library: sessions held open in this process, each set up as `panto` sets up a run
 * (PANTO_HOME, the config files, the provider keys and base URLs of `env`, the sandbox, hooks, MCP
 * servers, skills), reporting the `--json` events. A bad `config` throws a ConfigError naming the
 * key; a session that cannot start (no model or key, a session in use) a PantoSetupError.
 * The agent and its setup load here, on the first call, not when "panto" is imported.
 */
export async function createPanto(options: PantoOptions = {}): Promise<Panto> {
  const [{ startPantoSession }, version] = await Promise.all([
    import("./panto-session.js"),
    packageVersion(),
  ]);
  let config: { config: PantoConfig; source: string } | undefined;
  if (options.config !== undefined) {
    const { parseConfigText } = await import("../config/parse-config-text.js");
    config = { config: parseConfigText(JSON.stringify(options.config), GIVEN_CONFIG), source: GIVEN_CONFIG };
  }
  const settings = {
    options,
    cwd: resolve(options.cwd ?? process.cwd()),
    env: options.env ?? process.env,
    version,
    config,
  };
  return {
    startSession: () => startPantoSession(settings),
    resumeSession: (idOrPath) => startPantoSession(settings, idOrPath),
  };
}

/** panto's version, told to MCP servers as the CLI tells it. */
async function packageVersion(): Promise<string> {
  const text = await readFile(new URL("../../package.json", import.meta.url), "utf8");
  const version: unknown = JSON.parse(text).version;
  return typeof version === "string" ? version : "0.0.0";
}
