import path from "node:path";

/**
 * Where credentials usually live, relative to the home folder: keys, cloud and cluster logins,
 * registry tokens, password stores. Hidden from the model's commands and file tools whether or not
 * they exist (a missing one may not be created inside a writable folder either).
 */
export const CREDENTIAL_PATHS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".config/hub",
  ".kube",
  ".docker",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".npmrc",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
] as const;

/**
 * Every hidden path as an absolute path: the credential list under `home`, panto's own home (its
 * config, sessions and logs), and the configured extras, in that order, without duplicates.
 */
export function hiddenPathList(home: string, pantoHome: string, extra: readonly string[]): string[] {
  const all = [...CREDENTIAL_PATHS.map((relative) => path.join(home, relative)), pantoHome, ...extra];
  return [...new Set(all.map((entry) => path.resolve(entry)))];
}
