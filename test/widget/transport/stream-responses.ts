/** Responses of the stream endpoint for widget tests (what a fetch of `streamMessage` returns). */
const encoder = new TextEncoder()

/** A 200 stream whose body is `chunks`, one per read, then closed, broken (`error`) or silent (`hang`). */
export function streamResponse(chunks: string[], end: 'close' | 'error' | 'hang' = 'close') {
  let next = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++]
      if (chunk !== undefined) return controller.enqueue(encoder.encode(chunk))
      if (end === 'close') controller.close()
      if (end === 'error') controller.error(new TypeError('network error'))
      return end === 'hang' ? new Promise<void>(() => {}) : undefined
    },
  })
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

/** A 200 stream the test writes to as it goes. */
export function liveStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    drop: () => controller.error(new TypeError('network error')),
  }
}

export const errorResponse = (status: number, code: string) =>
  new Response(JSON.stringify({ error: { code, message: `failed: ${code}` } }), { status, headers: { 'Content-Type': 'application/json' } })
