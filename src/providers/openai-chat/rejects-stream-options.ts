/** Whether a rejected request was a server refusing `stream_options` (some compatible servers do), from its status and body. */
export function rejectsStreamOptions(status: number, body: string): boolean {
  return (status === 400 || status === 422) && body.includes("stream_options");
}
