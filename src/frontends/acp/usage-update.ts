import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { RunContext } from "../../runtime/run-context.js";
import { usageStatus } from "../../runtime/usage-status.js";

/**
 * The session's `usage_update`: `used` from the provider's numbers for the latest request (the
 * local estimate only before any), `size` from the window learned from an overflow or reported by
 * the server, and the cumulative `cost` in USD from config "prices". None while no window is known
 * (the protocol requires a size); `_meta["panto/usage"]` says where the figures come from.
 */
export async function usageUpdate(run: RunContext): Promise<SessionUpdate | undefined> {
  const status = await usageStatus(run);
  if (status.window === undefined) return undefined;
  return {
    sessionUpdate: "usage_update",
    used: status.used,
    size: status.window.tokens,
    ...(status.cost === undefined ? {} : { cost: { amount: status.cost, currency: "USD" } }),
    _meta: { "panto/usage": { usedFrom: status.usedFrom, sizeFrom: status.window.source } },
  };
}
