/**
 * A step is bounded in blocks and code time, and here in bytes: what it produces (text filled
 * into templates, values code returns, the state it stores) and what its response carries. A
 * small flow looping a bubble over a large variable would otherwise build a response of hundreds
 * of megabytes from one anonymous request. Sizes are UTF-8 bytes; the response counts the JSON of
 * each message, client action and input as it is added, so the budget stops the walk before a
 * big string is built, not after.
 */
export interface ByteLimits {
  /** Bytes a step may produce in total. */
  stepBytes: number
  /** Bytes of JSON its response may carry. */
  responseBytes: number
}

export const DEFAULT_BYTE_LIMITS: ByteLimits = { stepBytes: 4 * 1024 * 1024, responseBytes: 1024 * 1024 }

export class ByteBudgetExceeded extends Error {
  constructor(
    readonly budget: 'step' | 'response',
    readonly limitBytes: number,
    /** The step that went over (the engine ends its conversation with what it has). */
    readonly step: unknown,
  ) {
    super(`The step went over its ${budget} budget of ${limitBytes} bytes`)
    this.name = 'ByteBudgetExceeded'
  }
}

export class ByteMeter {
  private produced = 0
  private responded = 0

  constructor(
    readonly limits: ByteLimits,
    private readonly owner: unknown,
  ) {}

  /** Counts text the step produces; throws once the step budget is spent. */
  produce(text: string): void {
    this.produced += Buffer.byteLength(text)
    if (this.produced > this.limits.stepBytes) throw new ByteBudgetExceeded('step', this.limits.stepBytes, this.owner)
  }

  /** Counts a part of the response (as JSON); throws once the response budget is spent. */
  respond(part: unknown): void {
    this.responded += Buffer.byteLength(JSON.stringify(part) ?? '')
    if (this.responded > this.limits.responseBytes) {
      throw new ByteBudgetExceeded('response', this.limits.responseBytes, this.owner)
    }
  }
}

/** The size a code result takes once stored: text as is, anything else as JSON. */
export function resultText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
}

/** The longest start of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most three bytes (a pair of them four): most text needs no counting.
  if (text.length * 3 <= maxBytes) return text
  let bytes = 0
  let end = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    if (bytes + size > maxBytes) break
    bytes += size
    end += char.length
  }
  return text.slice(0, end)
}
