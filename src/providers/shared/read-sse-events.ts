import { optional } from "../../core/index.js";
import { type ByteBody, bytesOf } from "./sniff-response-body.js";
/** One server-sent event: its `event:` name when the server gave one, and its data lines joined. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Reads the server-sent events of a response body, by the WHATWG rules and tolerant of how real
 * servers write them: LF, CRLF or CR line endings (also split between reads), `data:` with or
 * without the space, comment lines, events with or without an `event:` line, and a last event
 * whose closing blank line never came. Events without data (a bare `event: ping`) are skipped.
 * Stopping early (a `break` after the terminal event) cancels the body, so a server that keeps
 * the connection open after its answer does not hold the caller.
 */
export async function* readSseEvents(body: ByteBody): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const parser = new SseLineParser();
  let buffer = "";
  const take = function* (final: boolean): Generator<SseEvent> {
    const { lines, rest } = splitLines(buffer, final);
    buffer = rest;
    for (const line of lines) {
      const event = parser.line(line);
      if (event !== undefined) yield event;
    }
  };
  // Leaving the loop early (the consumer stopped) cancels the body, which closes the connection.
  for await (const chunk of bytesOf(body)) {
    buffer += decoder.decode(chunk, { stream: true });
    yield* take(false);
  }
  buffer += decoder.decode();
  yield* take(true);
  const last = parser.end();
  if (last !== undefined) yield last;
}

/**
 * Splits off every complete line. A trailing CR stays in `rest` until the next read shows whether
 * an LF follows it; at the end of the body everything left is a line.
 */
function splitLines(buffer: string, final: boolean): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let start = 0;
  for (let index = 0; index < buffer.length; index++) {
    const char = buffer[index];
    if (char !== "\n" && char !== "\r") continue;
    if (char === "\r" && index === buffer.length - 1 && !final) break;
    lines.push(buffer.slice(start, index));
    if (char === "\r" && buffer[index + 1] === "\n") index++;
    start = index + 1;
  }
  const rest = buffer.slice(start);
  if (final && rest !== "") return { lines: [...lines, rest], rest: "" };
  return { lines, rest };
}

/** Folds lines into events: a blank line dispatches the data gathered since the last one. */
class SseLineParser {
  private data: string[] = [];
  private event: string | undefined;

  line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? "" : line.slice(colon + 1);
    const value = raw.startsWith(" ") ? raw.slice(1) : raw;
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    return undefined;
  }

  /** The body ended: an event still open (no closing blank line) counts. */
  end(): SseEvent | undefined {
    return this.dispatch();
  }

  private dispatch(): SseEvent | undefined {
    const event =
      this.data.length === 0 ? undefined : { ...optional("event", this.event), data: this.data.join("\n") };
    this.data = [];
    this.event = undefined;
    return event;
  }
}
