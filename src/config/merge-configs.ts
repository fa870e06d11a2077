import type { HooksConfig, ModelSettings, PantoConfig, PermissionsConfig } from "./panto-config.js";

/**
 * Layers configs in order, later ones winning per key. `providers` and `mcp_servers` merge per name (a
 * later definition of the same name replaces the earlier one whole, so fields never mix across files);
 * `timeouts` merge per timeout, `prices` and `models` per model, `sandbox`, `clearing` and `web_fetch` per key. `hooks` add up: every file's hooks of an event
 * run, the user's first, as Claude Code runs the hooks of all its settings files; so do `permissions`.
 */
export function mergeConfigs(...layers: PantoConfig[]): PantoConfig {
  const merged: PantoConfig = {};
  for (const layer of layers) {
    const {
      providers,
      mcp_servers,
      timeouts,
      hooks,
      prices,
      models,
      sandbox,
      clearing,
      web_fetch,
      permissions,
      ...rest
    } = layer;
    Object.assign(merged, rest);
    if (providers !== undefined) merged.providers = { ...merged.providers, ...providers };
    if (mcp_servers !== undefined) merged.mcp_servers = { ...merged.mcp_servers, ...mcp_servers };
    if (timeouts !== undefined) merged.timeouts = { ...merged.timeouts, ...timeouts };
    if (prices !== undefined) merged.prices = { ...merged.prices, ...prices };
    if (models !== undefined) merged.models = mergeModels(merged.models ?? {}, models);
    if (sandbox !== undefined) merged.sandbox = { ...merged.sandbox, ...sandbox };
    if (clearing !== undefined) merged.clearing = { ...merged.clearing, ...clearing };
    if (web_fetch !== undefined) merged.web_fetch = { ...merged.web_fetch, ...web_fetch };
    if (hooks !== undefined) merged.hooks = addHooks(merged.hooks ?? {}, hooks);
    if (permissions !== undefined) merged.permissions = addPermissions(merged.permissions ?? {}, permissions);
  }
  return merged;
}

/** Permission rules add up: a later file cannot take back an earlier one's deny. */
function addPermissions(earlier: PermissionsConfig, later: PermissionsConfig): PermissionsConfig {
  const result: PermissionsConfig = { ...earlier };
  for (const list of ["allow", "ask", "deny"] as const) {
    const rules = [...(earlier[list] ?? []), ...(later[list] ?? [])];
    if (rules.length > 0) result[list] = rules;
  }
  return result;
}

function addHooks(earlier: HooksConfig, later: HooksConfig): HooksConfig {
  const result: HooksConfig = { ...earlier };
  for (const [event, groups] of Object.entries(later) as [
    keyof HooksConfig,
    HooksConfig[keyof HooksConfig],
  ][])
    result[event] = [...(result[event] ?? []), ...(groups ?? [])];
  return result;
}

/** A later file's settings of a model win per setting, so a project may change one and keep the rest. */
function mergeModels(
  earlier: Record<string, ModelSettings>,
  later: Record<string, ModelSettings>,
): Record<string, ModelSettings> {
  const result = { ...earlier };
  for (const [model, settings] of Object.entries(later)) result[model] = { ...result[model], ...settings };
  return result;
}
