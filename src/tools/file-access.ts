/**
 * How the file tools (`read`, `write`, `edit`) reach a text file. Without one they use the local
 * file system. A front-end that owns the user's buffers (an editor over the Agent Client Protocol)
 * supplies one, so `read` sees unsaved changes and `write` and `edit` land in the editor, which
 * shows them and can review them. Paths are absolute; `bash` always runs locally.
 */
export interface FileAccess {
  /** The file's whole text; rejects with an Error saying why (not found, not readable...). */
  readText(path: string, signal?: AbortSignal): Promise<string>;
  /** Replaces the file's text, creating the file when it is missing. */
  writeText(path: string, content: string, signal?: AbortSignal): Promise<void>;
}
