/** Known secrets and keeping them out of what panto prints, writes and hands to commands. Imports nothing. */

export { looksSecretName, SECRET_NAME_WORDS } from "./secret-names.js";
export { MIN_SECRET_LENGTH, type Redact, SecretRedactor } from "./secret-redactor.js";
export { toolEnvironment } from "./tool-environment.js";
export { type UrlSecret, urlSecrets } from "./url-secrets.js";
