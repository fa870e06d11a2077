import { releaseSessionObjects } from "../../checkpoints/index.js";
import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import type { CliIo } from "../../frontends/shared/cli-io.js";
import { EXIT_OK, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { resolveSessionArgument } from "../../runtime/setup/session-argument.js";
import { UsageError } from "../../runtime/setup/setup-errors.js";
import { isSessionError, removeSession } from "../../session/index.js";

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/**
 * `panto sessions rm SESSION`: deletes the session file (refused while another panto has it open)
 * and frees the checkpoint content only it used. Forks keep what they copied.
 */
export async function runRemoveSession(
  parsed: { session: string; json: boolean },
  io: Pick<CliIo, "cwd" | "env" | "stdout" | "stderr">,
): Promise<number> {
  const pantoHome = resolvePantoHome(io.env);
  try {
    const projectRoot = findProjectRoot(io.cwd, { pantoHome });
    const path = await resolveSessionArgument(parsed.session, "panto sessions rm", {
      cwd: io.cwd,
      pantoHome,
      projectRoot,
    });
    const removed = await removeSession(path);
    const freed = await releaseSessionObjects(pantoHome, removed.header.id, removed.modifiedMs);
    if (parsed.json)
      io.stdout.write(
        `${JSON.stringify({
          type: "session_removed",
          id: removed.header.id,
          path: removed.path,
          bytes: removed.bytes,
          checkpoint_objects: freed.objects,
          checkpoint_bytes: freed.bytes,
        })}\n`,
      );
    else
      io.stdout.write(
        `Removed session ${removed.header.id.slice(0, 8)} (${removed.path}, ${size(removed.bytes)}); freed ${freed.objects} checkpoint objects (${size(freed.bytes)})\n`,
      );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError || isSessionError(error)) {
      io.stderr.write(`panto sessions rm: ${error.message.replace(/^panto sessions rm: /, "")}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
