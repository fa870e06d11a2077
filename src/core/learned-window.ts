/**
 * What an overflow error taught about one model's context window (DESIGN "Planned next": the window
 * is learned from the provider's numbers, never configured).
 */
export interface LearnedWindow {
  /** The window (or input limit) in the provider's tokens. */
  contextWindow: number;
  /** The rejected request's size in the provider's tokens, when the error stated it. */
  requestTokens?: number;
  /**
   * panto's local estimate of that same request, so that later requests' estimates can be scaled to
   * the provider's count (requestTokens / estimatedTokens).
   */
  estimatedTokens?: number;
}
