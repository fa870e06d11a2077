import type { PantoConfig } from "./panto-config.js";

/**
 * Layers configs in order, later ones winning per key. `providers` and `mcp_servers` merge per name (a
 * later definition of the same name replaces the earlier one whole, so fields never mix across files);
 * `timeouts` merge per timeout.
 */
export function mergeConfigs(...layers: PantoConfig[]): PantoConfig {
  const merged: PantoConfig = {};
  for (const layer of layers) {
    const { providers, mcp_servers, timeouts, ...rest } = layer;
    Object.assign(merged, rest);
    if (providers !== undefined) merged.providers = { ...merged.providers, ...providers };
    if (mcp_servers !== undefined) merged.mcp_servers = { ...merged.mcp_servers, ...mcp_servers };
    if (timeouts !== undefined) merged.timeouts = { ...merged.timeouts, ...timeouts };
  }
  return merged;
}
