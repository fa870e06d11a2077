import { looksSecretName } from "./secret-names.js";

/**
 * The environment commands run by the `bash` tool get: the caller's, without variables whose name
 * looks secret (see looksSecretName) and without any variable holding a value `isSecret` knows
 * (a provider key copied into another name), except the names in `passthrough`, which pass as set.
 */
export function toolEnvironment(
  env: NodeJS.ProcessEnv,
  options: { passthrough?: readonly string[]; isSecret?: (value: string) => boolean } = {},
): NodeJS.ProcessEnv {
  const passthrough = new Set(options.passthrough ?? []);
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const withheld = looksSecretName(name) || options.isSecret?.(value) === true;
    if (!withheld || passthrough.has(name)) result[name] = value;
  }
  return result;
}
