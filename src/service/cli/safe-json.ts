/** A JSON text's value, or undefined when it is not JSON (an answer or call to check next). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
