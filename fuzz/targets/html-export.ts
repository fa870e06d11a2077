import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportSession, memorySink } from "../../src/export/index.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { expectOwnError } from "../support/expect-own-error.js";
import { liveMarkup } from "../support/html-safety.js";
import { SESSION_WORDS } from "../support/session-words.js";

const path = join(mkdtempSync(join(tmpdir(), "panto-fuzz-export-")), "session.jsonl");

/**
 * `panto export` of a session file (any bytes) to HTML, and to Markdown and JSON. Invariants: an
 * export finishes or fails with a SessionError naming the file; the page holds no live markup from
 * the session (no element or attribute the exporter does not write, no handler, no script or link
 * of its own; see `liveMarkup`); every line of the JSON export is valid JSON.
 */
export const target: FuzzTarget = {
  description: "session file -> exportSession (html, md, json); no live markup from the session in the page",
  dictionary: [
    ...SESSION_WORDS,
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "![x](data:image/png;base64,AA)",
    "</textarea>",
    "<!--",
    "&lt;",
    "\u2028",
    "```html\n<b>\n```",
    '"summary":"# Summary\\n<b>"',
  ],
  maxLength: 16_384,
  timeoutMs: 4000,
  async run(input) {
    writeFileSync(path, input);
    for (const format of ["html", "md", "json"] as const) {
      const sink = memorySink();
      try {
        await exportSession({ path, format }, sink);
      } catch (error) {
        expectOwnError(error, ["session"]);
        return;
      }
      const text = sink.text();
      if (format === "html") {
        const live = liveMarkup(text);
        invariant(live === undefined, `live markup in the exported page: ${live}`);
      }
      if (format === "json") for (const line of text.split("\n")) if (line !== "") JSON.parse(line);
    }
  },
};
