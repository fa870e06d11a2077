import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import type { FuzzTarget } from "../engine/fuzz-target.js";
import { runAdapterOnBody } from "../support/adapter-stream.js";
import { STREAM_WORDS } from "../support/stream-words.js";

/** The Anthropic Messages adapter reading a 200 answer whose body is the input (see `runAdapterOnBody` for the invariants). */
export const target: FuzzTarget = {
  description:
    "200 body in random reads -> createAnthropicClient (transport, sniffing, event reader, stream reader)",
  dictionary: STREAM_WORDS,
  maxLength: 16_384,
  run: (input) => runAdapterOnBody(createAnthropicClient, "anthropic", input, import.meta.url),
};
