import { createHash } from "node:crypto";

/**
 * A model of Anthropic's prompt cache, for the fake server's usage figures (the context benchmark,
 * issue 34). What it follows from Anthropic's documentation:
 * - the prompt is one sequence of blocks in the order tools, system, messages; a block marked with
 *   `cache_control` is a breakpoint, and the prefix ending at each breakpoint is written to the cache;
 * - a request reads the longest cached prefix ending at a block boundary that lies at a breakpoint
 *   or up to 20 blocks before one (the API's lookback); what follows it, up to the last breakpoint,
 *   is a cache write; what follows the last breakpoint is plain input;
 * - an entry lives `ttlMs` (five minutes by default) after it was last written or read, or an hour
 *   when its breakpoint says `ttl: "1h"`; the tokens from the previous breakpoint (or the cached
 *   prefix read) up to a one-hour breakpoint are written at the one-hour price;
 * - a prefix shorter than `minCacheableTokens` (1,024 for Sonnet) is never cached.
 * Simplified: tokens are counted per block as characters / 4 of the block's JSON (without its
 * `cache_control`), and time is whatever `now` says, so a benchmark can simulate the user's pauses.
 */
export interface PromptCacheOptions {
  ttlMs?: number;
  minCacheableTokens?: number;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
}

/** How one request's prompt divides into the usage figures Anthropic reports. */
export interface CacheAccount {
  /** The whole prompt: tools, system and messages. */
  totalTokens: number;
  /** `cache_read_input_tokens`. */
  cacheReadTokens: number;
  /** `cache_creation_input_tokens`. */
  cacheWriteTokens: number;
  /** The part of the cache writes made for one-hour breakpoints (`ephemeral_1h_input_tokens`). */
  longCacheWriteTokens: number;
  /** `input_tokens`: neither read nor written. */
  inputTokens: number;
  /** The hash of the prefix ending at the last breakpoint (undefined without one). */
  lastBreakpointHash: string | undefined;
  /** The hash of every prefix of this request ending at a block boundary. */
  prefixHashes: ReadonlySet<string>;
}

/** One block of the prompt, with the hash and size of the prefix that ends with it. */
interface PrefixPoint {
  hash: string;
  endTokens: number;
  breakpoint: boolean;
  /** How long the entry a breakpoint writes lives, when it says (`ttl: "1h"`). */
  ttlMs?: number;
}

export const DEFAULT_CACHE_TTL_MS = 5 * 60 * 1000;
export const LONG_CACHE_TTL_MS = 60 * 60 * 1000;
const LOOKBACK_BLOCKS = 20;

export class PromptCacheModel {
  /** Expiry and lifetime of each cached prefix, by hash. */
  private readonly entries = new Map<string, { expires: number; ttlMs: number }>();
  private readonly ttlMs: number;
  private readonly minCacheableTokens: number;
  private readonly now: () => number;

  constructor(options: PromptCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
    this.minCacheableTokens = options.minCacheableTokens ?? 1024;
    this.now = options.now ?? Date.now;
  }

  /** Accounts one request (a Messages API body) and updates the cache as the API would. */
  account(body: unknown): CacheAccount {
    const points = prefixPoints(body);
    const totalTokens = points.at(-1)?.endTokens ?? 0;
    const prefixHashes = new Set(points.map((point) => point.hash));
    const lastBreakpoint = points.findLastIndex((point) => point.breakpoint);
    const last = points[lastBreakpoint];
    if (last === undefined || last.endTokens < this.minCacheableTokens)
      return {
        totalTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        longCacheWriteTokens: 0,
        inputTokens: totalTokens,
        lastBreakpointHash: last?.hash,
        prefixHashes,
      };
    const now = this.now();
    const hit = this.longestHit(points, now);
    const cacheReadTokens = hit === undefined ? 0 : hit.endTokens;
    if (hit !== undefined) {
      const ttlMs = this.entries.get(hit.hash)?.ttlMs ?? this.ttlMs;
      this.entries.set(hit.hash, { expires: now + ttlMs, ttlMs });
    }
    let written = cacheReadTokens;
    let longCacheWriteTokens = 0;
    for (const point of points) {
      if (!point.breakpoint) continue;
      const ttlMs = point.ttlMs ?? this.ttlMs;
      if (point.endTokens > written) {
        if (ttlMs > this.ttlMs) longCacheWriteTokens += point.endTokens - written;
        written = point.endTokens;
      }
      if (point.endTokens >= this.minCacheableTokens) {
        const known = this.entries.get(point.hash);
        const keep = known !== undefined && known.expires > now + ttlMs ? known : undefined;
        this.entries.set(point.hash, keep ?? { expires: now + ttlMs, ttlMs });
      }
    }
    return {
      totalTokens,
      cacheReadTokens,
      cacheWriteTokens: last.endTokens - cacheReadTokens,
      longCacheWriteTokens,
      inputTokens: totalTokens - last.endTokens,
      lastBreakpointHash: last.hash,
      prefixHashes,
    };
  }

  /** Whether the prefix with this hash is cached and unexpired now. */
  isWarm(hash: string): boolean {
    return (this.entries.get(hash)?.expires ?? 0) > this.now();
  }

  /** The longest unexpired cached prefix among the boundaries the API looks at. */
  private longestHit(points: readonly PrefixPoint[], now: number): PrefixPoint | undefined {
    const looked = new Set<number>();
    points.forEach((point, index) => {
      if (!point.breakpoint) return;
      for (let back = index; back >= 0 && index - back < LOOKBACK_BLOCKS; back--) looked.add(back);
    });
    let best: PrefixPoint | undefined;
    for (const index of looked) {
      const point = points[index];
      if (point === undefined || (this.entries.get(point.hash)?.expires ?? 0) <= now) continue;
      if (best === undefined || point.endTokens > best.endTokens) best = point;
    }
    return best;
  }
}

/** Tokens of a Messages API body as the cache model counts them: tools, system and messages. */
export function countPromptTokens(body: unknown): number {
  return prefixPoints(body).at(-1)?.endTokens ?? 0;
}

/** Every block of the prompt in order, each with the chained hash and running size of its prefix. */
function prefixPoints(body: unknown): PrefixPoint[] {
  const request = (typeof body === "object" && body !== null ? body : {}) as {
    tools?: unknown;
    system?: unknown;
    messages?: unknown;
  };
  const blocks: Array<{ label: string; block: unknown }> = [];
  for (const tool of asArray(request.tools)) blocks.push({ label: "tool", block: tool });
  const system =
    typeof request.system === "string" ? [{ type: "text", text: request.system }] : request.system;
  for (const block of asArray(system)) blocks.push({ label: "system", block });
  asArray(request.messages).forEach((message, index) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    const parts = typeof content === "string" ? [{ type: "text", text: content }] : asArray(content);
    for (const block of parts) blocks.push({ label: `${index}:${String(role)}`, block });
  });
  const points: PrefixPoint[] = [];
  let hash = "";
  let endTokens = 0;
  for (const { label, block } of blocks) {
    const { cache_control: marker, ...rest } = (block ?? {}) as Record<string, unknown>;
    const text = `${label}\n${JSON.stringify(rest)}`;
    hash = createHash("sha256").update(hash).update(text).digest("hex");
    endTokens += Math.ceil(text.length / 4);
    const long = (marker as { ttl?: unknown } | null | undefined)?.ttl === "1h";
    points.push({
      hash,
      endTokens,
      breakpoint: marker !== undefined && marker !== null,
      ...(long ? { ttlMs: LONG_CACHE_TTL_MS } : {}),
    });
  }
  return points;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
