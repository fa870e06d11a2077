import {
  defuseEnvelopeTags,
  quoteTranscriptText,
  unquoteTranscriptText,
} from "../../src/compaction/quote-transcript-text.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";

const MARKER =
  /^[^\S\r\n\u2028\u2029]*\[[^\S\r\n\u2028\u2029]*[A-Za-z](?:[A-Za-z]|[^\S\r\n\u2028\u2029])*\]:/m;
const RAW_TAG = /<\/?(?:transcript|previous-summary)>/i;

/**
 * Quoting of message text in the compaction transcript. Invariants: unquoting the quoted text
 * gives back the text exactly; the quoted text has no line that reads as a turn marker and no raw
 * envelope tag; defusing leaves no raw envelope tag either.
 */
export const target: FuzzTarget = {
  description:
    "any text -> quoteTranscriptText -> unquoteTranscriptText (round trip, nothing passes for a turn)",
  dictionary: [
    "[User]:",
    "[Assistant]:",
    "[Tool result]:",
    "\\[User]:",
    "<transcript>",
    "</transcript>",
    "<previous-summary>",
    "&lt;",
    "&amp;",
    "&amp;lt;",
    "\u2028",
    "\r",
    " ",
    "\\",
  ],
  maxLength: 4096,
  run(input) {
    const text = input.toString("utf8");
    const quoted = quoteTranscriptText(text);
    invariant(unquoteTranscriptText(quoted) === text, "quoting does not round-trip");
    invariant(!MARKER.test(quoted), "a quoted line still reads as a turn marker");
    invariant(!RAW_TAG.test(quoted), "a raw envelope tag survives quoting");
    invariant(!RAW_TAG.test(defuseEnvelopeTags(text)), "a raw envelope tag survives defusing");
  },
};
