/** What every entry after the header carries. */
export interface EntryBase {
  /** Short random id, unique within the file. */
  id: string;
  /** ISO time the entry was appended. */
  ts: string;
}
