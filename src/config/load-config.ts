import path from "node:path";
import { ConfigError } from "./config-error.js";
import { findProjectRoot } from "./find-project-root.js";
import { mergeConfigs } from "./merge-configs.js";
import type { PantoConfig } from "./panto-config.js";
import { describeReadFailure, readOptionalFile } from "./read-optional-file.js";
import { resolvePantoHome } from "./resolve-panto-home.js";

export interface LoadedConfig {
  /** User config overlaid with project config. */
  config: PantoConfig;
  /** Config files that existed and were read, user first. */
  files: string[];
  pantoHome: string;
  projectRoot: string;
  /** The file that defined each server of `config.mcp_servers` (the last one, which won); absent without any. */
  mcpServerSources?: Record<string, string>;
}

/** `$PANTO_HOME/config.json`. */
export function userConfigPath(pantoHome: string): string {
  return path.join(pantoHome, "config.json");
}

/** `<project>/.panto/config.json`. */
export function projectConfigPath(projectRoot: string): string {
  return path.join(projectRoot, ".panto", "config.json");
}

/**
 * Reads the user config, then the project config (which wins per key; providers merge per name).
 * Missing files are fine; an unreadable or invalid one is a ConfigError naming the file.
 */
export async function loadConfig(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<LoadedConfig> {
  const pantoHome = resolvePantoHome(options.env);
  const projectRoot = findProjectRoot(options.cwd, { pantoHome });
  const candidates = [...new Set([userConfigPath(pantoHome), projectConfigPath(projectRoot)])];
  const layers: PantoConfig[] = [];
  const files: string[] = [];
  for (const file of candidates) {
    const text = await readConfigFile(file);
    if (text === undefined) continue;
    // The schema validator is loaded only when there is a file to validate.
    const { parseConfigText } = await import("./parse-config-text.js");
    layers.push(parseConfigText(text, file));
    files.push(file);
  }
  const loaded: LoadedConfig = { config: mergeConfigs(...layers), files, pantoHome, projectRoot };
  const sources = mcpServerSources(layers, files);
  return sources === undefined ? loaded : { ...loaded, mcpServerSources: sources };
}

/** Which file each MCP server name comes from: a later layer's entry replaces an earlier one's. */
function mcpServerSources(layers: readonly PantoConfig[], files: readonly string[]) {
  const sources: Record<string, string> = {};
  layers.forEach((layer, index) => {
    for (const name of Object.keys(layer.mcp_servers ?? {})) sources[name] = files[index] ?? "config";
  });
  return Object.keys(sources).length === 0 ? undefined : sources;
}

async function readConfigFile(file: string): Promise<string | undefined> {
  try {
    return await readOptionalFile(file);
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the config file: ${describeReadFailure(error)}`, {
      file,
      cause: error,
    });
  }
}
