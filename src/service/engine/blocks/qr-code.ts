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

/** The service's address of the code for `text` (percent-encoded, so any text stays in its parameter). */
export const qrCodeUrl = (text: string) => `${QR_CODE_PATH}?text=${encodeURIComponent(text)}`

export function runQrCode(block: Block, step: Step): Continuation {
  const options = asFields(block.options)
  const text = step.substitute(readString(options, 'data') ?? '').trim()
  if (text === '') {
    step.skip(block, 'warning', 'QR code skipped: it has no text to encode')
  } else if (text.length > MAX_QR_TEXT) {
    step.skip(block, 'warning', `QR code skipped: its text is over ${MAX_QR_TEXT} characters`, { length: text.length })
  } else {
    const url = qrCodeUrl(text)
    step.addMessage({ id: block.id, type: 'image', content: { url, clickLink: { alt: text } } })
    const variableId = readString(options, 'saveUrlInVariableId')
    if (variableId && step.index.variablesById.has(variableId)) step.variables[variableId] = url
  }
  return follow(block.outgoingEdgeId)
}
