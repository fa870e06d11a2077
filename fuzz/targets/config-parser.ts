import type { ConfigError } from "../../src/config/config-error.js";
import { lineAndColumn, locateJsonError, MAX_JSON_DEPTH } from "../../src/config/locate-json-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { expectOwnError } from "../support/expect-own-error.js";
import { CONTROL_CHARACTER } from "../support/terminal-safety.js";

const FILE = "/home/dev/project/.panto/config.json";

/**
 * The config parser and its JSON error locator. Invariants: parsing returns a config or throws a
 * ConfigError whose every line names the file and holds no control character (keys are quoted
 * with escapes); the locator finds an error exactly when JSON.parse rejects the text (or it nests
 * deeper than MAX_JSON_DEPTH), at an offset inside it whose line and column agree with the text.
 */
export const target: FuzzTarget = {
  description: "config file text -> parseConfigText (schema, messages) and locateJsonError (vs JSON.parse)",
  dictionary: [
    '"model"',
    '"compaction_model"',
    '"keep_verbatim_tokens"',
    '"providers"',
    '"base_url"',
    '"api_key_env"',
    '"mcp_servers"',
    '"hooks"',
    '"restore_facts"',
    '"$schema"',
    '"openai/gpt-5"',
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\\u",
    "\ufeff",
    "1e999",
    "-0",
    "true",
    "null",
  ],
  maxLength: 32_768,
  run(input) {
    const text = input.toString("utf8");
    try {
      parseConfigText(text, FILE);
    } catch (error) {
      expectOwnError(error, ["config"]);
      const message = (error as ConfigError).message;
      invariant(
        !CONTROL_CHARACTER.test(message),
        `a control character in ${JSON.stringify(message.slice(0, 200))}`,
      );
      for (const line of (error as ConfigError).message.split("\n"))
        invariant(
          line.startsWith(`${FILE}`),
          `a config error line that does not name the file: ${line.slice(0, 120)}`,
        );
    }
    const location = locateJsonError(text);
    let valid = true;
    try {
      JSON.parse(text);
    } catch {
      valid = false;
    }
    const tooDeep = location?.reason === `nested more than ${MAX_JSON_DEPTH} levels deep`;
    invariant(
      tooDeep || valid === (location === undefined),
      `locateJsonError says ${location === undefined ? "valid" : "invalid"}, JSON.parse disagrees`,
    );
    if (location === undefined) return;
    invariant(
      location.offset >= 0 && location.offset <= text.length,
      `error offset ${location.offset} outside the text`,
    );
    const again = lineAndColumn(text, location.offset);
    invariant(
      again.line === location.line && again.column === location.column,
      "line and column disagree with the offset",
    );
  },
};
