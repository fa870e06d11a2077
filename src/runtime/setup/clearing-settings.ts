import { type ClearingSettings, DEFAULT_CLEARING } from "../../compaction/index.js";
import type { ClearingConfig } from "../../config/index.js";
import { optional } from "../../core/index.js";

/** Config `clearing` with its defaults (`DEFAULT_CLEARING`; the trigger's default needs the window, so stays unset). */
export function clearingSettings(config: ClearingConfig | undefined): ClearingSettings {
  return {
    enabled: config?.enabled ?? DEFAULT_CLEARING.enabled,
    ...optional("triggerTokens", config?.trigger_tokens),
    keepRecent: config?.keep_recent ?? DEFAULT_CLEARING.keepRecent,
    minReclaimTokens: config?.min_reclaim_tokens ?? DEFAULT_CLEARING.minReclaimTokens,
    excludeTools: config?.exclude_tools ?? DEFAULT_CLEARING.excludeTools,
    cacheTtlSeconds: config?.cache_ttl_seconds ?? DEFAULT_CLEARING.cacheTtlSeconds,
  };
}
