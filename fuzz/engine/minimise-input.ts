import type { Failure } from "./find-signature.js";

/**
 * Shrinks a failing input while it fails the same way (same signature): removes ever smaller
 * chunks, then replaces bytes with "a", until no single change keeps the failure. Runs in the
 * worker, so it serves crashes and broken invariants; a hang is shrunk by hand.
 */
export async function minimiseInput(
  input: Buffer,
  run: (input: Buffer) => Promise<Failure | undefined>,
): Promise<{ input: Buffer; signature: string }> {
  const first = await run(input);
  if (first === undefined) return { input, signature: "(no failure)" };
  const { signature } = first;
  const fails = async (candidate: Buffer): Promise<boolean> =>
    (await run(candidate))?.signature === signature;
  let best = input;
  for (let chunk = Math.max(1, best.length >> 1); chunk >= 1; chunk = chunk >> 1) {
    for (let at = 0; at < best.length; ) {
      const candidate = Buffer.concat([best.subarray(0, at), best.subarray(at + chunk)]);
      if (await fails(candidate)) best = candidate;
      else at += chunk;
    }
  }
  for (let at = 0; at < best.length; at++) {
    if (best[at] === 0x61) continue;
    const candidate = Buffer.from(best);
    candidate[at] = 0x61;
    if (await fails(candidate)) best = candidate;
  }
  return { input: best, signature };
}
