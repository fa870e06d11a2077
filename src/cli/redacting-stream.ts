import type { Redact } from "../secrets/index.js";

/**
 * The same output stream with every `write` passed through `redact` first. Everything else
 * (isTTY, columns, events, cursor control for readline) is the stream's own, so a terminal stays a
 * terminal. Each write is redacted whole: panto writes a secret-bearing line in one call.
 */
export function redactingStream<S extends NodeJS.WritableStream>(stream: S, redact: Redact): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text =
      typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : undefined;
    const forwarded = text === undefined ? chunk : redact(text);
    return (stream.write as (...args: unknown[]) => boolean).call(stream, forwarded, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
