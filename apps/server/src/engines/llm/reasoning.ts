/**
 * Reasoning models think out loud. Some services send the thoughts in a field of their own
 * (`reasoning_content`, which the client never reads); others — Qwen3, DeepSeek-R1 distills and many
 * models behind Ollama, vLLM or llama.cpp — write them into the answer as `<think>…</think>`. Neither
 * may ever reach a reader as a translation or an answer, so every answer passes through here.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest end of `text` that could be the start of `tag` (a tag split across chunks). */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(-n))) return n;
  }
  return 0;
}

/**
 * Removes `<think>…</think>` blocks from a stream of text chunks, whichever way the tags are split
 * across chunks. What follows a block starts without the blank lines models put after it. A block
 * never closed (the model stopped while thinking) is dropped to the end.
 */
export class ThinkStripper {
  private inThink = false;
  /** Text held back because it may be the start of a tag. */
  private pending = '';
  /** Whitespace right after a block (or at the very start) is not part of the answer. */
  private trimStart = true;

  /** The visible part of the next chunk (possibly empty). */
  push(chunk: string): string {
    let text = this.pending + chunk;
    this.pending = '';
    let out = '';
    for (;;) {
      if (this.inThink) {
        const end = text.indexOf(CLOSE);
        if (end === -1) {
          this.pending = text.slice(text.length - partialTagAt(text, CLOSE));
          return out;
        }
        text = text.slice(end + CLOSE.length);
        this.inThink = false;
        this.trimStart = true;
        continue;
      }
      const start = text.indexOf(OPEN);
      if (start === -1) {
        const held = partialTagAt(text, OPEN);
        this.pending = text.slice(text.length - held);
        return out + this.visible(text.slice(0, text.length - held));
      }
      out += this.visible(text.slice(0, start));
      text = text.slice(start + OPEN.length);
      this.inThink = true;
    }
  }

  /** Whatever was held back, once the stream has ended. */
  flush(): string {
    const rest = this.inThink ? '' : this.visible(this.pending);
    this.pending = '';
    return rest;
  }

  private visible(text: string): string {
    if (!this.trimStart) return text;
    const trimmed = text.replace(/^\s+/, '');
    if (trimmed !== '') this.trimStart = false;
    return trimmed;
  }
}

/**
 * The answer of a whole (not streamed) completion without its thoughts. Besides whole blocks it
 * handles a lone `</think>`: some chat templates open the block in the prompt, so the answer starts
 * inside it and only its end shows.
 */
export function stripThinking(text: string): string {
  const stripper = new ThinkStripper();
  const visible = stripper.push(text) + stripper.flush();
  const lone = visible.lastIndexOf(CLOSE);
  return lone === -1 ? visible : visible.slice(lone + CLOSE.length).replace(/^\s+/, '');
}
