import QRCode from 'qrcode'
import { MAX_QR_TEXT, QR_CODE_PATH } from '../engine/blocks/qr-code'
import { HttpError } from '../http/errors'

export { QR_CODE_PATH }

/**
 * The PNG of a QR code block's code (engine/blocks/qr-code.ts), drawn by the `qrcode` library; a
 * text the block would not encode (empty, over MAX_QR_TEXT) is a 400.
 */
export async function qrCodePng(text: string): Promise<Uint8Array<ArrayBuffer>> {
  if (text === '' || text.length > MAX_QR_TEXT) {
    throw new HttpError('invalid_query', `text is the code's text: 1 to ${MAX_QR_TEXT} characters.`, [
      { path: 'text', message: `Got ${text.length} characters` },
    ])
  }
  return new Uint8Array(await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 }))
}
