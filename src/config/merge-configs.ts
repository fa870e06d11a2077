import type { PantoConfig } from "./panto-config.js";

/**
 * Layers configs in order, later ones winning per key. `providers` merge per provider name (a later
 * definition of the same provider replaces the earlier one whole, so fields never mix across files);
 * `timeouts` merge per timeout.
 */
export function mergeConfigs(...layers: PantoConfig[]): PantoConfig {
  const merged: PantoConfig = {};
  for (const layer of layers) {
    const { providers, timeouts, ...rest } = layer;
    Object.assign(merged, rest);
    if (providers !== undefined) merged.providers = { ...merged.providers, ...providers };
    if (timeouts !== undefined) merged.timeouts = { ...merged.timeouts, ...timeouts };
  }
  return merged;
}
