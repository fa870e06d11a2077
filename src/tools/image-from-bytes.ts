import { type ImageBlock, readImageInfo } from "../core/index.js";
import { ToolError } from "./tool-error.js";

/**
 * Largest image file sent: Anthropic's 5 MB limit applies to the base64 text, which is 4/3 of the
 * file. The strictest provider's limits hold for every model, so a session can change model.
 */
export const MAX_IMAGE_BYTES = (5 * 1024 * 1024 * 3) / 4;
/** Longest side in pixels (Anthropic refuses more than 8000; OpenAI and Gemini scale down). */
export const MAX_IMAGE_SIDE = 8000;

/**
 * The image block for a file's bytes, its type read from its header (whatever its name says), or a
 * ToolError naming the file when it is not a PNG, JPEG, GIF or WebP image or is over a limit (panto
 * does not scale images down: that would need a native image library).
 */
export function imageFromBytes(bytes: Buffer, shown: string): ImageBlock {
  const info = readImageInfo(bytes);
  if (info === undefined) throw new ToolError(`${shown}: not a PNG, JPEG, GIF or WebP image`);
  checkImageFileSize(bytes.length, shown);
  if (Math.max(info.width, info.height) > MAX_IMAGE_SIDE)
    throw new ToolError(
      `${shown}: image is ${info.width}x${info.height} pixels; the limit is ${MAX_IMAGE_SIDE} pixels a side (Anthropic's limit); panto does not scale images down, so make it smaller first`,
    );
  return { type: "image", mediaType: info.mediaType, data: bytes.toString("base64"), name: shown };
}

/** Refuses an image file of `size` bytes over {@link MAX_IMAGE_BYTES} before it is read. */
export function checkImageFileSize(size: number, shown: string): void {
  if (size > MAX_IMAGE_BYTES)
    throw new ToolError(
      `${shown}: image is ${size} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (5 MB once base64-encoded, Anthropic's limit per image); panto does not scale images down, so make it smaller first`,
    );
}
