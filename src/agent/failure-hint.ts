import type { PantoError } from "../core/index.js";
import { MESSAGE_TOO_LARGE_ADVICE, MessageTooLargeError } from "./message-too-large.js";

/** A next step for the user, by error code. The session path is named so nothing feels lost. */
export function failureHint(error: PantoError, sessionPath: string): string | undefined {
  const kept = `Your message is kept in ${sessionPath}; the conversation continues from before it.`;
  // Compacting cannot shrink the message itself, so this hint never suggests /compact.
  if (error instanceof MessageTooLargeError) {
    const size = error.messageTokens === undefined ? "" : ` (about ${error.messageTokens} tokens)`;
    return `Your message alone${size} does not fit the model's context window. ${MESSAGE_TOO_LARGE_ADVICE} ${kept}`;
  }
  switch (error.code) {
    case "context_overflow":
      return `The request does not fit the model's context window, and compacting older turns could not make it fit. Ask for smaller steps or outputs, run /compact with instructions, or switch to a model with a larger context window (/model). ${kept}`;
    case "rate_limit":
      return `The provider is rate-limiting or out of quota; wait a little and try again. ${kept}`;
    case "network":
      // Not retried: nothing listens on this machine, so waiting cannot help.
      if (error.nothingListening)
        return `Start the server or check the provider's base URL, then try again. ${kept}`;
      return `The provider did not answer successfully after several retries; try again shortly. ${kept}`;
    case "overloaded":
    case "server":
      return `The provider did not answer successfully after several retries; try again shortly. ${kept}`;
    case "auth":
      return "Check the API key variable for this provider (see panto --help).";
    case "aborted":
      return `Interrupted. ${kept}`;
    case "invalid_request":
      return error.unknownModel
        ? `The provider does not know this model. /model lists the models it offers; /model PROVIDER/MODEL switches (or -m PROVIDER/MODEL when starting panto). ${kept}`
        : kept;
    case "other":
      return kept;
  }
}

/** Said after Ctrl-C when the prompt and the partial answer stay in the context. */
export const INTERRUPTED_KEPT_HINT =
  "Interrupted: your prompt and what was answered so far stay in the context, marked interrupted; tool calls that had not run are recorded as not run.";
