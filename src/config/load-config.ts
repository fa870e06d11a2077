import path from "node:path";
import type { RuleLayer, SourcedRule } from "../permissions/decide-permission.js";
import { ConfigError } from "./config-error.js";
import { readValidConfigText } from "./config-json.js";
import { type ConfigVerdicts, configVerdicts } from "./config-verdicts.js";
import { findProjectRoot } from "./find-project-root.js";
import { mergeConfigs } from "./merge-configs.js";
import type { PantoConfig } from "./panto-config.js";
import { describeReadFailure, readOptionalFile } from "./read-optional-file.js";
import { resolvePantoHome } from "./resolve-panto-home.js";

export interface LoadedConfig {
  /** User config overlaid with the project's, its local file's, and the managed settings. */
  config: PantoConfig;
  /** Config files that existed and were read, user first. */
  files: string[];
  pantoHome: string;
  projectRoot: string;
  /** The file that defined each server of `config.mcp_servers` (the last one, which won); absent without any. */
  mcpServerSources?: Record<string, string>;
  /** Every permission rule of every file, with its layer, file, list and index (src/permissions); absent without any. */
  permissionRules?: SourcedRule[];
  /** The managed settings, when their file exists: what they pin no flag or other file can loosen. */
  managed?: { file: string; config: PantoConfig };
}

/** The config files, least trusted first, and the layer each is for permission rules. */
type ConfigLayerName = Exclude<RuleLayer, "session">;

/** `$PANTO_HOME/config.json`. */
export function userConfigPath(pantoHome: string): string {
  return path.join(pantoHome, "config.json");
}

/** `<project>/.panto/config.json`. */
export function projectConfigPath(projectRoot: string): string {
  return path.join(projectRoot, ".panto", "config.json");
}

/** `<project>/.panto/config.local.json`: the user's own settings for this project, not committed. */
export function localConfigPath(projectRoot: string): string {
  return path.join(projectRoot, ".panto", "config.local.json");
}

/**
 * The managed settings a team or an administrator installs, which no other file can loosen:
 * `PANTO_MANAGED_SETTINGS` if set, else `/etc/panto/managed.json` on Linux and
 * `/Library/Application Support/panto/managed.json` on macOS.
 */
export function managedConfigPath(env: NodeJS.ProcessEnv): string {
  const given = env.PANTO_MANAGED_SETTINGS;
  if (given !== undefined && given !== "") return path.resolve(given);
  if (process.platform === "darwin") return "/Library/Application Support/panto/managed.json";
  if (process.platform === "win32")
    return path.join(env.ProgramData ?? "C:\\ProgramData", "panto", "managed.json");
  return "/etc/panto/managed.json";
}

/**
 * Reads the user config, then the project config, the project's local file and the managed
 * settings, each winning per key over the ones before (providers merge per name). Permission rules
 * add up across files instead (src/permissions decides with all of them, deny first). Missing
 * files are fine; an unreadable or invalid one is a ConfigError naming the file.
 */
export async function loadConfig(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Settings a program gives beside the files (the program API's `createPanto({ config })`),
   * already validated: they win over the user's and the project's files, never over the managed
   * settings; their permission rules hold for this run only (layer "session", named by `source`).
   */
  given?: { config: PantoConfig; source: string };
}): Promise<LoadedConfig> {
  const pantoHome = resolvePantoHome(options.env);
  const projectRoot = findProjectRoot(options.cwd, { pantoHome });
  const candidates: Array<{ file: string; layer: ConfigLayerName }> = [
    { file: userConfigPath(pantoHome), layer: "user" },
    { file: projectConfigPath(projectRoot), layer: "project" },
    { file: localConfigPath(projectRoot), layer: "local" },
    { file: managedConfigPath(options.env), layer: "managed" },
  ];
  const verdicts = configVerdicts(pantoHome);
  const layers: PantoConfig[] = [];
  const files: string[] = [];
  /** Where each layer came from: its file, or the program's name for given settings. */
  const layerNames: string[] = [];
  const permissionRules: SourcedRule[] = [];
  let managed: LoadedConfig["managed"];
  for (const { file, layer } of candidates) {
    if (layer === "managed" && options.given !== undefined) {
      const { config, source } = options.given;
      layers.push(config);
      layerNames.push(source);
      if (config.permissions !== undefined)
        permissionRules.push(...(await sourcedRules(config, "session", source)));
    }
    // The project's own file is the user's when panto runs in the home folder: read it once.
    if (files.includes(file)) continue;
    const text = await readConfigFile(file);
    if (text === undefined) continue;
    const config = await parseConfigFile(text, file, verdicts);
    layers.push(config);
    layerNames.push(file);
    files.push(file);
    if (layer === "managed") managed = { file, config };
    if (config.permissions !== undefined) permissionRules.push(...(await sourcedRules(config, layer, file)));
  }
  const loaded: LoadedConfig = {
    config: mergeConfigs(...layers),
    files,
    pantoHome,
    projectRoot,
    ...(permissionRules.length === 0 ? {} : { permissionRules }),
    ...(managed === undefined ? {} : { managed }),
  };
  const sources = mcpServerSources(layers, layerNames);
  return sources === undefined ? loaded : { ...loaded, mcpServerSources: sources };
}

/**
 * One file's settings. The schema validator (zod) is loaded only for a text this build has not
 * found valid before: an unchanged file is read without it (config-verdicts.ts).
 */
async function parseConfigFile(
  text: string,
  file: string,
  verdicts: ConfigVerdicts | undefined,
): Promise<PantoConfig> {
  if (verdicts !== undefined && (await verdicts.valid(text))) return readValidConfigText(text);
  const { parseConfigText } = await import("./parse-config-text.js");
  const config = parseConfigText(text, file);
  await verdicts?.remember(text);
  return config;
}

/** One file's permission rules, read (parseConfigText has already refused a bad one). */
async function sourcedRules(config: PantoConfig, layer: RuleLayer, file: string): Promise<SourcedRule[]> {
  const { PERMISSION_LISTS, parsePermissionRule } = await import("../permissions/permission-rule.js");
  return PERMISSION_LISTS.flatMap((list) =>
    (config.permissions?.[list] ?? []).flatMap((text, index) => {
      const parsed = parsePermissionRule(text);
      return "message" in parsed ? [] : [{ ...parsed, list, layer, file, index }];
    }),
  );
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
