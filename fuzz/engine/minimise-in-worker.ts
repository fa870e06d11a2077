import { Worker } from "node:worker_threads";
import { InputSlot } from "./input-slot.js";
import type { WorkerMessage, WorkerSetup } from "./worker-protocol.js";

/** Shrinks a crashing or invariant-breaking input in a worker of its own. */
export function minimiseInWorker(
  workerFile: string,
  targetFile: string,
  input: Buffer,
): Promise<{ input: Buffer; signature: string }> {
  const setup: WorkerSetup = {
    targetFile,
    seedDirs: [],
    corpusOut: undefined,
    skip: [],
    fuzz: false,
    seed: 1,
    slot: InputSlot.create(Math.max(input.length, 1 << 16)).buffer,
    minimise: input,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: setup });
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "minimised") {
        resolve({ input: Buffer.from(message.input), signature: message.signature });
        void worker.terminate();
      }
    });
    worker.on("error", reject);
  });
}
