import { appendFile, rename } from "node:fs/promises";
import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import type { CheckpointEntry, EntryFields, FileChange, Session } from "../session/index.js";
import { resolveToolPath, type Tool } from "../tools/index.js";
import { describeCheckpointFailure } from "./checkpoint-error.js";
import type { CheckpointRecorder, CheckpointToken } from "./checkpoint-recorder.js";
import {
  type CheckpointStore,
  seedIndexPath,
  sessionIndexPath,
  sessionObjectsPath,
  syncExcludes,
} from "./checkpoint-store.js";
import {
  checkpointPath,
  resolveWrittenFile,
  type StoredState,
  sameVersion,
  storeFileState,
} from "./file-version.js";
import { completeBefores, recentlyChanged } from "./settle-changes.js";
import { type SnapshotLimits, WorkspaceIndex } from "./workspace-index.js";
import { openWorkspaceStore } from "./workspace-store.js";

/** Defaults: files over 10 MiB are not stored; a listing over 32 MiB of paths is too large a workspace. */
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxListingBytes: 32 * 1024 * 1024,
  watch: true,
};

/** Nested repositories named in one checkpoint, at most. */
const MAX_NESTED_LISTED = 20;

export interface SessionCheckpointsOptions {
  session: Session;
  pantoHome: string;
  /** The session's working directory: the workspace is found from it. */
  cwd: string;
  limits?: Partial<SnapshotLimits>;
}

type Token = CheckpointToken &
  (
    | { kind: "none" }
    | { kind: "failed"; tool: string; error: string }
    | { kind: "file"; tool: string; absolute: string; before: StoredState }
    | { kind: "workspace"; tool: string; started: number }
  );

interface Setup {
  store: CheckpointStore;
  index: WorkspaceIndex;
}

/**
 * The checkpoint recorder of one session: `write` and `edit` calls get the file they name stored
 * before and after; every other tool that may change files (`bash`, MCP tools) gets the workspace
 * refreshed in the session's index before and after, and the difference recorded. Each call that
 * ran gets one `checkpoint` entry in the session.
 */
export class SessionCheckpoints implements CheckpointRecorder {
  readonly #options: SessionCheckpointsOptions;
  readonly #limits: SnapshotLimits;
  #setup: Promise<Setup> | undefined;

  constructor(options: SessionCheckpointsOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_SNAPSHOT_LIMITS, ...options.limits };
  }

  async before(call: ToolCallBlock, tool: Tool, cwd: string): Promise<Token> {
    if (tool.kind === "read") return { call, kind: "none" };
    const name = tool.definition.name;
    try {
      const { store, index } = await this.#ready();
      const path = call.arguments.path;
      if (tool.kind === "write" && typeof path === "string") {
        const absolute = await resolveWrittenFile(resolveToolPath(cwd, path));
        const before = await storeFileState(store.objectsDir, absolute, this.#limits.maxFileBytes);
        return { call, kind: "file", tool: name, absolute, before };
      }
      if (await syncExcludes(store)) index.lookAtEverything("the project's .git/info/exclude changed");
      await index.refresh();
      return { call, kind: "workspace", tool: name, started: Date.now() };
    } catch (error) {
      return { call, kind: "failed", tool: name, error: describeCheckpointFailure(error) };
    }
  }

  async after(token: CheckpointToken, _result: ToolResultBlock): Promise<CheckpointEntry | undefined> {
    const state = token as Token;
    if (state.kind === "none") return undefined;
    const fields = await this.#record(state).catch(
      (error: unknown): EntryFields<CheckpointEntry> => ({
        ...this.#empty(state, state.kind === "file" ? "file" : "workspace"),
        error: describeCheckpointFailure(error),
      }),
    );
    await this.#remember(fields).catch(() => undefined);
    return await this.#options.session.appendCheckpoint(fields);
  }

  async #record(token: Exclude<Token, { kind: "none" }>): Promise<EntryFields<CheckpointEntry>> {
    if (token.kind === "failed") return { ...this.#empty(token, "workspace"), error: token.error };
    const { store, index } = await this.#ready();
    const root = store.workspace.root;
    if (token.kind === "file") {
      const path = checkpointPath(root, token.absolute);
      const after = await storeFileState(store.objectsDir, token.absolute, this.#limits.maxFileBytes);
      const base = { ...this.#empty(token, "file"), root };
      if (token.before.kind === "uncovered")
        return { ...base, uncovered: [{ path, reason: token.before.reason }] };
      if (after.kind === "uncovered") return { ...base, uncovered: [{ path, reason: after.reason }] };
      const unchanged = sameVersion(token.before.version, after.version);
      return unchanged
        ? base
        : { ...base, files: [{ path, before: token.before.version, after: after.version }] };
    }
    const refreshed = await index.refresh({ ignored: true });
    const settled = await completeBefores(store, refreshed.changes);
    const uncovered = [
      ...settled.uncovered,
      ...(await recentlyChanged(store.workspace.root, refreshed, token.started)),
      ...refreshed.uncovered
        .filter((item) => item.reason === "nested-repository")
        .slice(0, MAX_NESTED_LISTED),
    ];
    return { ...this.#empty(token, "workspace"), root, files: settled.changes, uncovered };
  }

  #empty(token: Token & { tool: string }, scope: "file" | "workspace"): EntryFields<CheckpointEntry> {
    return {
      toolCallId: token.call.id,
      tool: token.tool,
      root: this.#options.cwd,
      scope,
      files: [],
      uncovered: [],
    };
  }

  /** Notes the objects an entry names in the session's list, so deleting another session keeps them. */
  async #remember(fields: EntryFields<CheckpointEntry>): Promise<void> {
    if (fields.files.length === 0) return;
    const { store } = await this.#ready();
    await appendFile(sessionObjectsPath(store, this.#options.session.header.id), objectList(fields.files), {
      mode: 0o600,
    });
  }

  /** Stops watching the workspace (the watch never keeps the process alive; this frees it sooner). */
  /**
   * Ends the session's recording: stops the watch and keeps its index as the store's seed (the
   * next session starts from it), so a store holds one index per running session plus that one.
   */
  async close(): Promise<void> {
    const setup = await this.#setup?.catch(() => undefined);
    if (setup === undefined) return;
    setup.index.close();
    await rename(setup.index.indexFile, seedIndexPath(setup.store)).catch(() => undefined);
  }

  /** Opens the store and the session's index on first use; a failed attempt is retried next time. */
  #ready(): Promise<Setup> {
    this.#setup ??= openWorkspaceStore(this.#options.pantoHome, this.#options.cwd).then(
      (store) => ({
        store,
        index: new WorkspaceIndex(
          store,
          sessionIndexPath(store, this.#options.session.header.id),
          this.#limits,
        ),
      }),
      (error: unknown) => {
        this.#setup = undefined;
        throw error;
      },
    );
    return this.#setup;
  }
}

/** The object ids `files` name, one per line. */
export function objectList(files: readonly FileChange[]): string {
  const oids = new Set<string>();
  for (const file of files) {
    if (file.before !== null) oids.add(file.before.oid);
    if (file.after !== null) oids.add(file.after.oid);
  }
  return [...oids].map((oid) => `${oid}\n`).join("");
}
