import { afterAll, describe, expect, it } from 'vitest'
import { MAX_QR_TEXT, qrCodeUrl } from '../../../../src/service/engine/blocks/qr-code'
import { closeSandbox } from '../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, text, texts, varId } from '../support/flow-builder'

afterAll(closeSandbox)

const qrFlow = (data: string) =>
  buildFlow({
    variables: ['Code', 'Url'],
    groups: [
      {
        id: 'g',
        blocks: [{ id: 'qr', type: 'qr-code', options: { data, saveUrlInVariableId: varId('Url') } }, text('after', 'Saved {{Url}}')],
      },
    ],
  })

describe('QR code block', () => {
  it('sends an image of the filled-in text, with the text as its alternative, and saves its address', async () => {
    const outcome = await new Conversation(qrFlow('Code {{Code}}')).start({ prefilledVariables: { Code: '42' } })
    expect(outcome.response.messages?.[0]).toEqual({
      id: 'qr',
      type: 'image',
      content: { url: qrCodeUrl('Code 42'), clickLink: { alt: 'Code 42' } },
    })
    expect(texts(outcome)).toEqual([`Saved ${qrCodeUrl('Code 42')}`])
  })

  it('is skipped with a log when its text is empty or too long for a code', async () => {
    // The last: 1,000 characters, within the limit, but 3,000 bytes, more than a code holds.
    for (const value of ['', 'x'.repeat(MAX_QR_TEXT + 1), '漢'.repeat(MAX_QR_TEXT)]) {
      const outcome = await new Conversation(qrFlow('{{Code}}')).start({ prefilledVariables: { Code: value } })
      expect(outcome.response.messages?.map((m) => m.type)).toEqual(['text'])
      expect(outcome.response.logs?.[0]?.details).toMatchObject({ blockId: 'qr', type: 'qr-code' })
    }
  })
})
