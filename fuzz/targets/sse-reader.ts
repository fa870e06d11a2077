import { isDeepStrictEqual } from "node:util";
import { readSseEvents, type SseEvent } from "../../src/providers/shared/read-sse-events.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { chunkedBody, collect } from "../support/chunked-body.js";

/**
 * The server-sent events reader shared by the Anthropic, Responses and Chat adapters, against a
 * model of the rules it documents applied to the whole body at once. Invariants: it never throws,
 * it yields exactly the model's events, and where the body is cut into reads does not matter.
 */
export const target: FuzzTarget = {
  description: "response body in random reads -> readSseEvents, compared with the whole-body model",
  dictionary: [
    "data:",
    "data: ",
    "event:",
    "event: ",
    ": ping",
    "id: 1",
    "retry: 10",
    "\r\n",
    "\r",
    "\n\n",
    "[DONE]",
  ],
  async run(input) {
    const expected = modelEvents(new TextDecoder().decode(input));
    for (const salt of [0, 1]) {
      const events = await collect(readSseEvents(chunkedBody(input, salt)));
      invariant(
        isDeepStrictEqual(events, expected),
        `reads cut with salt ${salt} gave ${JSON.stringify(events).slice(0, 300)}, the model ${JSON.stringify(expected).slice(0, 300)}`,
      );
    }
  },
};

/**
 * The documented rules on the whole text: lines end at CRLF, CR or LF; a blank line dispatches;
 * `:` starts a comment; a field's value loses one leading space; `data` lines join with "\n";
 * `event` names the event; an event without data is dropped; an event still open at the end counts.
 */
function modelEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let name: string | undefined;
  const dispatch = (): void => {
    if (data.length > 0)
      events.push(name === undefined ? { data: data.join("\n") } : { event: name, data: data.join("\n") });
    data = [];
    name = undefined;
  };
  const lines = text.split(/\r\n|\r|\n/);
  if (/(\r\n|\r|\n)$/.test(text) || text === "") lines.pop();
  for (const line of lines) {
    if (line === "") dispatch();
    else if (!line.startsWith(":")) {
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const raw = colon === -1 ? "" : line.slice(colon + 1);
      const value = raw.startsWith(" ") ? raw.slice(1) : raw;
      if (field === "data") data.push(value);
      else if (field === "event") name = value;
    }
  }
  dispatch();
  return events;
}
