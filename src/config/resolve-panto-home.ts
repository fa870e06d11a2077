import os from "node:os";
import path from "node:path";

/** `$PANTO_HOME` (absolute, `~` expanded), else `~/.panto`. */
export function resolvePantoHome(env: NodeJS.ProcessEnv): string {
  const configured = env.PANTO_HOME?.trim();
  if (configured === undefined || configured === "") return path.join(os.homedir(), ".panto");
  if (configured === "~") return os.homedir();
  if (configured.startsWith("~/")) return path.join(os.homedir(), configured.slice(2));
  return path.resolve(configured);
}
