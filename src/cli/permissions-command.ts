import { loadConfig } from "../config/index.js";
import { describePermissions, permissionsJson } from "../runtime/describe-permissions.js";
import { asUsageError } from "../runtime/setup/setup-errors.js";
import { EXIT_OK, EXIT_USAGE } from "./exit-status.js";

export interface PermissionsCommandIo {
  json: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `panto permissions`: the permission rules of every config file for this project (user, project,
 * the project's local file, the managed settings), deny first, each with its layer, list index and
 * file; `--json`: `{"rules": [...], "files": [...]}`. Exit 2 for a bad config, naming it.
 */
export async function runPermissionsCommand(io: PermissionsCommandIo): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadConfig>>;
  try {
    loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    if (io.json) io.stdout.write(`${JSON.stringify({ error: { code: "usage", message: usage.message } })}\n`);
    else io.stderr.write(`panto: ${usage.message}\n`);
    return EXIT_USAGE;
  }
  const rules = loaded.permissionRules ?? [];
  io.stdout.write(
    io.json
      ? `${JSON.stringify({ rules: permissionsJson(rules), files: loaded.files })}\n`
      : `${describePermissions(rules)}\n`,
  );
  return EXIT_OK;
}
