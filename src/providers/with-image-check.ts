import {
  type ImageBlock,
  imagePlaceholder,
  type Message,
  type ModelClient,
  PantoError,
  type TextBlock,
} from "../core/index.js";

/**
 * The client, saying whether its model takes images (`acceptsImages`), and for a model that does
 * not, never sending one: a prompt whose newest user message holds an image is refused before any
 * request (PantoError invalid_request naming the model and how to say it does take them), and an
 * older image (from a model used earlier in the session, or a tool's) goes as its one-line
 * placeholder instead.
 */
export function withImageCheck(client: ModelClient, acceptsImages: boolean): ModelClient {
  if (acceptsImages) return { ...client, acceptsImages };
  return {
    ...client,
    acceptsImages,
    async stream(request, options) {
      const messages = request.context.messages;
      const newest = messages.findLastIndex((message) => message.role === "user");
      if (newest !== -1 && messages[newest]?.content.some((block) => block.type === "image"))
        throw new PantoError("invalid_request", imagesRefused(client.id), { retryable: false });
      const context = { ...request.context, messages: messages.map(withoutImages) };
      return await client.stream({ ...request, context }, options);
    },
  };
}

/** Why an image cannot go to `modelId`, and what to do. */
export function imagesRefused(modelId: string): string {
  return `${modelId} does not accept images; nothing was sent. Choose a model that does (/model or -m), or, if this one does, say so in config: "models": {"${modelId}": {"images": true}}`;
}

function withoutImages(message: Message): Message {
  const placeholder = (block: TextBlock | ImageBlock): TextBlock =>
    block.type === "image"
      ? { type: "text", text: `${imagePlaceholder(block)} (not sent: this model does not accept images)` }
      : block;
  if (message.role === "user") return { ...message, content: message.content.map(placeholder) };
  if (message.role === "tool")
    return {
      ...message,
      content: message.content.map((result) => ({ ...result, content: result.content.map(placeholder) })),
    };
  return message;
}
