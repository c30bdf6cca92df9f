import { cleanup } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../../../src/protocol/index'
import { withInput } from './with-input'

afterEach(cleanup)

const fileInput = (types: string[], extra: Record<string, unknown> = {}) =>
  ({ id: 'photo', type: 'file input', options: { allowedFileTypes: { isEnabled: true, types }, ...extra } }) as unknown as ChatInput

const picker = (container: Element) => container.querySelector<HTMLInputElement>('input[type="file"]')!

describe('FileInput', () => {
  it('offers the allowed types as extensions then MIME types, and turns a capture=camera token into the camera', async () => {
    const { view } = await withInput(fileInput(['.jpg', '.png', 'capture=camera']))
    expect(picker(view.container).getAttribute('accept')).toBe('.jpg, .png, .jpeg, image/jpeg, image/jpg, image/png')
    expect(picker(view.container).getAttribute('capture')).toBe('environment')
  })

  it("keeps the block's own capture, and asks no camera when the types do not", async () => {
    const own = await withInput(fileInput(['image/png'], { capture: 'user' }))
    expect(picker(own.view.container).getAttribute('capture')).toBe('user')
    cleanup()
    const none = await withInput(fileInput(['.pdf']))
    expect(picker(none.view.container).getAttribute('accept')).toBe('.pdf, application/pdf')
    expect(picker(none.view.container).hasAttribute('capture')).toBe(false)
  })
})
