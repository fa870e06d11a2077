/** What the supervisor hands a worker. */
export interface WorkerSetup {
  /** The bundled target module. */
  targetFile: string;
  /** Folders (or single files) of inputs run first, in order: the seed corpus, then a campaign's own. */
  seedDirs: string[];
  /** Where inputs that found new coverage are saved (a campaign's corpus); none in a smoke run. */
  corpusOut: string | undefined;
  /** Skip these inputs (sha1 hex) when seeding: they hung or crashed the worker before. */
  skip: string[];
  /** Fuzz after the seeds (false: run the seeds only). */
  fuzz: boolean;
  seed: number;
  slot: SharedArrayBuffer;
  /** Minimise this input instead of fuzzing. */
  minimise?: Uint8Array;
}

export type FindKind = "crash" | "invariant" | "timeout" | "out-of-memory";

/** Messages from a worker to its supervisor. */
export type WorkerMessage =
  | { type: "stats"; execs: number; features: number; blocks: number; corpus: number }
  | {
      type: "find";
      kind: FindKind;
      signature: string;
      message: string;
      stack: string;
      input: Uint8Array;
    }
  | { type: "seeded"; inputs: number }
  | { type: "minimised"; input: Uint8Array; signature: string }
  | { type: "done" };
