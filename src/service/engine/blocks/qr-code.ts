import type { Block } from '../../../protocol/index'
import { type Continuation, follow } from '../core/continuation'
import { asFields, readString } from '../core/field-readers'
import type { Step } from '../core/step'

/**
 * A QR code block (`"type": "qr-code"`, the shape of the widely used builder's forged block):
 * `options.data` (variables filled in) is encoded, and the visitor sees the code as an image
 * message whose alternative text is that text. The picture is served by this service at
 * QR_CODE_PATH, a relative address the widget resolves against the service; with
 * `options.saveUrlInVariableId` the address is also saved in a variable.
 */
export const QR_CODE_BLOCK_TYPE = 'qr-code'
export const QR_CODE_PATH = '/v1/qr-code'
/** Longest text encoded: more makes a code too dense for a phone's camera on a screen. */
export const MAX_QR_TEXT = 1_000
/** The error correction the codes are drawn with: a code read with up to 15% of it damaged. */
export const QR_ERROR_CORRECTION = 'M'
/**
 * What the largest code (version 40) holds at that level in byte mode, as UTF-8 bytes. Texts are
 * cut into the densest modes for their parts, never longer than all bytes, so a text within it
 * always fits: 1,000 CJK characters (3,000 bytes) do not.
 */
export const MAX_QR_BYTES = 2_331

/** Why `text` cannot be drawn as a code (for the flow's log and the picture's 400), or undefined. */
export function qrTextProblem(text: string): string | undefined {
  if (text === '') return 'it has no text to encode'
  if (text.length > MAX_QR_TEXT) return `its text is over ${MAX_QR_TEXT} characters`
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_QR_BYTES) return `its text takes ${bytes} bytes, more than a code holds (${MAX_QR_BYTES})`
  return undefined
}

/** The service's address of the code for `text` (percent-encoded, so any text stays in its parameter). */
export const qrCodeUrl = (text: string) => `${QR_CODE_PATH}?text=${encodeURIComponent(text)}`

export function runQrCode(block: Block, step: Step): Continuation {
  const options = asFields(block.options)
  const text = step.substitute(readString(options, 'data') ?? '').trim()
  const problem = qrTextProblem(text)
  if (problem) {
    step.skip(block, 'warning', `QR code skipped: ${problem}`, { length: text.length })
  } else {
    const url = qrCodeUrl(text)
    step.addMessage({ id: block.id, type: 'image', content: { url, clickLink: { alt: text } } })
    const variableId = readString(options, 'saveUrlInVariableId')
    if (variableId && step.index.variablesById.has(variableId)) step.variables[variableId] = url
  }
  return follow(block.outgoingEdgeId)
}
