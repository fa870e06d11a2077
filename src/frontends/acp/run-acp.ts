import { Readable, Writable } from "node:stream";
import type { SandboxMode } from "../../core/index.js";
import { modelIdAcceptsImages } from "../../providers/model-accepts-images.js";
import { visible } from "../../runtime/format-text.js";
import { addEnvironmentSecrets } from "../../runtime/setup/known-secrets.js";
import { SecretRedactor } from "../../secrets/index.js";
import { answerInitializeEarly } from "./early-initialize.js";

export interface AcpIo {
  env: NodeJS.ProcessEnv;
  version: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** -m, --max-turns and --sandbox of `panto acp`. */
  model?: string;
  maxTurns?: number;
  sandbox?: SandboxMode;
}

/**
 * `panto acp`: an Agent Client Protocol agent on stdin and stdout (JSON-RPC, one message a line).
 * stdout carries protocol messages only; every warning and notice goes to stderr, with known
 * secrets redacted. When stdin closes, every turn is cancelled, every session file flushed and
 * closed, and the process exits 0. SIGTERM (an editor stopping the agent without closing stdin)
 * does the same, so no session lock nor sandbox folder is left behind, and exits 143.
 * A first `initialize` is answered before the SDK and the runtime are loaded (answerInitializeEarly).
 */
export async function runAcp(io: AcpIo): Promise<number> {
  const secrets = new SecretRedactor();
  addEnvironmentSecrets(secrets, io.env);
  const warn = (message: string): void => {
    io.stderr.write(`panto: warning: ${visible(secrets.redact(message))}\n`);
  };
  const note = (message: string): void => {
    io.stderr.write(`panto: ${visible(secrets.redact(message))}\n`);
  };
  // Anything a library prints with console.log would corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  // Config is not read yet: only -m can say the model takes no images (a prompt with one is refused anyway).
  const images = io.model === undefined || modelIdAcceptsImages(io.model);
  const early = await answerInitializeEarly(
    Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>,
    io.stdout,
    io.version,
    images,
  );
  const [{ AcpAgent }, { ndJsonStream }] = await Promise.all([
    import("./acp-agent.js"),
    import("@agentclientprotocol/sdk"),
  ]);
  const agent = new AcpAgent({
    version: io.version,
    images,
    env: io.env,
    secrets,
    warn,
    note,
    ...(io.model === undefined ? {} : { model: io.model }),
    ...(io.maxTurns === undefined ? {} : { maxTurns: io.maxTurns }),
    ...(io.sandbox === undefined ? {} : { sandbox: io.sandbox }),
  });
  if (early.initialize !== undefined) agent.initialized(early.initialize);
  const stream = ndJsonStream(
    Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
    early.rest,
  );
  const connection = agent.app().connect(stream);
  let onTerm = (): void => {};
  const terminated = new Promise<"terminated">((resolve) => {
    onTerm = () => resolve("terminated");
  });
  process.once("SIGTERM", onTerm);
  try {
    const ending = await Promise.race([connection.closed.then(() => "closed" as const), terminated]);
    await agent.closeAll();
    return ending === "terminated" ? EXIT_TERMINATED : 0;
  } finally {
    process.removeListener("SIGTERM", onTerm);
  }
}

/** 128 + SIGTERM's number, as a shell reports a process ended by it. */
const EXIT_TERMINATED = 143;
