import { type ChildProcess, spawn } from "node:child_process";
import { Writable } from "node:stream";
import {
  type ClientCapabilities,
  type ClientConnection,
  type ClientContext,
  client,
  type InitializeResponse,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { CLI_PATH } from "../e2e/run-cli.js";

/** How the test client answers the agent's requests. */
export interface ClientScript {
  /**
   * Answers to permission questions, in order; "cancel" answers `cancelled`, "error" fails the
   * request (as a client that cannot ask does). Default: allow once.
   */
  permissions?: Array<"allow_once" | "allow_always" | "reject_once" | "cancel" | "error">;
  /** With it the client advertises fs and serves files from this map (path → text). */
  files?: Map<string, string>;
  capabilities?: ClientCapabilities;
}

/**
 * `panto acp` as a real subprocess (the built CLI) driven by the official SDK's `client()` over its
 * stdio. Every stdout line is kept raw, every update and request recorded in arrival order.
 */
export class AcpProcess {
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  /** Each line written to stdout, unparsed. */
  readonly rawLines: string[] = [];
  stderr = "";
  /** Everything the client saw, in order: updates, permission questions, fs requests. */
  readonly log: Array<
    | { kind: "update"; sessionId: string; update: SessionUpdate }
    | { kind: "permission"; request: RequestPermissionRequest }
    | { kind: "fs-read"; path: string }
    | { kind: "fs-write"; path: string; content: string }
  > = [];
  readonly exited: Promise<number | null>;
  readonly script: ClientScript;
  #pending = "";

  constructor(
    args: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
    script: ClientScript = {},
  ) {
    this.script = script;
    this.child = spawn(process.execPath, [CLI_PATH, "acp", ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    const readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.child.stdout?.on("data", (chunk: Buffer) => {
          this.#keepLines(chunk.toString());
          controller.enqueue(new Uint8Array(chunk));
        });
        this.child.stdout?.on("end", () => controller.close());
      },
    });
    const writable = Writable.toWeb(this.child.stdin as Writable) as WritableStream<Uint8Array>;
    this.connection = this.#client().connect(ndJsonStream(writable, readable));
  }

  get agent(): ClientContext {
    return this.connection.agent;
  }

  /** Initializes with the script's capabilities (fs when files are served). */
  async initialize(capabilities: ClientCapabilities = {}): Promise<InitializeResponse> {
    const fs = this.script.files === undefined ? {} : { fs: { readTextFile: true, writeTextFile: true } };
    return this.agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: { ...fs, ...this.script.capabilities, ...capabilities },
      clientInfo: { name: "panto-test-client", version: "1.0.0" },
    });
  }

  /** The updates of one session so far. */
  updates(sessionId?: string): SessionUpdate[] {
    return this.log.flatMap((entry) =>
      entry.kind === "update" && (sessionId === undefined || entry.sessionId === sessionId)
        ? [entry.update]
        : [],
    );
  }

  /** The raw stdout lines parsed: every one must be JSON-RPC. */
  messages(): Array<Record<string, unknown>> {
    return this.rawLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Closes stdin and waits for the exit status. */
  async end(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }

  #keepLines(text: string): void {
    this.#pending += text;
    const lines = this.#pending.split("\n");
    this.#pending = lines.pop() ?? "";
    this.rawLines.push(...lines.filter((line) => line !== ""));
  }

  #client() {
    const answers = [...(this.script.permissions ?? [])];
    return client({ name: "panto-test-client" })
      .onNotification("session/update", ({ params }: { params: SessionNotification }) => {
        this.log.push({ kind: "update", sessionId: params.sessionId, update: params.update });
      })
      .onRequest("session/request_permission", ({ params }): RequestPermissionResponse => {
        this.log.push({ kind: "permission", request: params });
        const answer = answers.shift() ?? "allow_once";
        if (answer === "cancel") return { outcome: { outcome: "cancelled" } };
        if (answer === "error") throw new Error("the client could not show the question");
        return { outcome: { outcome: "selected", optionId: answer } };
      })
      .onRequest("fs/read_text_file", ({ params }) => {
        this.log.push({ kind: "fs-read", path: params.path });
        const text = this.script.files?.get(params.path);
        if (text === undefined) throw new Error(`no such buffer: ${params.path}`);
        return { content: text };
      })
      .onRequest("fs/write_text_file", ({ params }) => {
        this.log.push({ kind: "fs-write", path: params.path, content: params.content });
        this.script.files?.set(params.path, params.content);
        return {};
      });
  }
}

/** Polls `check` until it holds (an update arrives after the response it follows). */
export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
