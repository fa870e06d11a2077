import { isDeepStrictEqual } from "node:util";
import { jsonArrayElements } from "../../src/providers/google-gemini/json-array-elements.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { chunkedBody, collect } from "../support/chunked-body.js";

/**
 * Gemini's JSON array stream reader (`streamGenerateContent` without SSE). Invariants: it never
 * throws; where the body is cut into reads does not matter; each element it yields is a piece of
 * the body; and for a body that is a valid JSON array of objects (or a single object), the
 * elements parse to exactly its items.
 */
export const target: FuzzTarget = {
  description: "response body in random reads -> jsonArrayElements, checked against JSON.parse",
  dictionary: ["[", "]", "{", "}", ",", '"', "\\", '\\"', "\r\n,", '{"candidates":[]}', '"text":"'],
  async run(input) {
    const body = new TextDecoder().decode(input);
    const first = await collect(jsonArrayElements(chunkedBody(input, 0)));
    const second = await collect(jsonArrayElements(chunkedBody(input, 1)));
    invariant(isDeepStrictEqual(first, second), "the elements depend on where reads end");
    for (const element of first)
      invariant(body.includes(element), "an element that is not a piece of the body");
    const whole = parsed(body);
    if (whole === undefined) return;
    const items = Array.isArray(whole) ? whole : [whole];
    if (!items.every((item) => typeof item === "object" && item !== null)) return;
    invariant(
      isDeepStrictEqual(
        first.map((element) => JSON.parse(element)),
        items,
      ),
      `valid JSON whose elements read as ${JSON.stringify(first).slice(0, 200)}`,
    );
  },
};

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
