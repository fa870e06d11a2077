import { readFile, writeFile } from "node:fs/promises";

/**
 * Moves every time a session file records an hour back, as a long pause would leave them: a run
 * that judges the prompt cache from them (300 s by default) finds it cold.
 */
export async function recordedAnHourEarlier(session: string): Promise<void> {
  const text = await readFile(session, "utf8");
  const hourAgo = (ts: string) => new Date(Date.parse(ts) - 3_600_000).toISOString();
  await writeFile(
    session,
    text.replace(/"ts":"([^"]+)"/g, (_, ts: string) => `"ts":"${hourAgo(ts)}"`),
  );
}
