import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type InteractiveRun, startInteractive } from "../cli/interactive-harness.js";
import { makeSandbox, type Sandbox } from "../cli/panto-process.js";

/**
 * The real interactive mode in a fresh sandbox whose project keeps no turn verbatim
 * (`keep_verbatim_tokens: 0`, so a `/compact` summarises every earlier turn), after one question
 * ("first question") and its answer ("first answer"). `seen`: the terminal output read so far.
 */
export async function startInteractiveAfterOneTurn(): Promise<{
  box: Sandbox;
  run: InteractiveRun;
  seen: number;
}> {
  const box = await makeSandbox();
  await mkdir(join(box.project, ".panto"), { recursive: true });
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 0 }));
  const run = await startInteractive(box);
  try {
    run.server.enqueue({ type: "text", text: "first answer" });
    run.terminal.type("first question\r");
    return { box, run, seen: await run.terminal.waitForAnswer("first answer") };
  } catch (error) {
    // The caller never gets the server to close.
    await run.server.close();
    throw error;
  }
}
