import type { AgentContext } from "@agentclientprotocol/sdk";
import type { FileAccess } from "../../tools/index.js";

/**
 * The file tools' access through the client's `fs/read_text_file` and `fs/write_text_file`, used
 * where the client advertises them: the model reads the editor's unsaved buffers, and writes land
 * in the editor (which shows and can review them). `sessionId` names the session asking.
 */
export function clientFiles(client: AgentContext, sessionId: () => string): FileAccess {
  return {
    readText: async (path, signal) => {
      const response = await client.request(
        "fs/read_text_file",
        { sessionId: sessionId(), path },
        requestOptions(signal),
      );
      return response.content;
    },
    writeText: async (path, content, signal) => {
      await client.request(
        "fs/write_text_file",
        { sessionId: sessionId(), path, content },
        requestOptions(signal),
      );
    },
  };
}

/** A tool's abort cancels the request and stops waiting for it. */
function requestOptions(signal: AbortSignal | undefined) {
  return signal === undefined ? undefined : { cancellationSignal: signal, stopWaitingOnCancel: true };
}
