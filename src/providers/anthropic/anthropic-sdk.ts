import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages";
import { Models } from "@anthropic-ai/sdk/resources/models";

/**
 * The Anthropic SDK client with only the two resources panto calls: messages (create) and models
 * (list). BaseAnthropic is the SDK's own client (options, auth, retries, errors, headers,
 * timeouts); the full `Anthropic` class adds every other resource (beta, files, skills,
 * organization, ...) on top, which a bundler cannot leave out and which tripled the code each run
 * loaded and compiled.
 */
export class AnthropicSdk extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
  readonly models: Models = new Models(this);
}
