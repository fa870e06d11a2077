import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import type { FuzzTarget } from "../engine/fuzz-target.js";
import { runAdapterOnBody } from "../support/adapter-stream.js";
import { STREAM_WORDS } from "../support/stream-words.js";

/** The Gemini adapter reading a 200 answer whose body is the input (see `runAdapterOnBody` for the invariants). */
export const target: FuzzTarget = {
  description:
    "200 body in random reads -> createGeminiClient (transport, sniffing, payload reader, stream reader)",
  dictionary: STREAM_WORDS,
  maxLength: 16_384,
  run: (input) => runAdapterOnBody(createGeminiClient, "google", input, import.meta.url),
};
