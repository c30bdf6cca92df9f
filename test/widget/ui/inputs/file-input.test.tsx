import { act, cleanup, fireEvent, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChatInput } from '../../../../src/protocol/index'
import { settle } from '../../chat/fake-client'
import { withInput } from './with-input'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'onLine')
})

/** Uploads as the browser would make them, answered by the test: `fail()` as a lost connection, `answer()` as the service. */
class FakeUpload {
  static made: FakeUpload[] = []
  upload = { onprogress: null }
  responseType = ''
  status = 0
  responseText = ''
  onload?: () => void
  onerror?: () => void
  onabort?: () => void
  open() {}
  setRequestHeader() {}
  getAllResponseHeaders() {
    return ''
  }
  abort() {
    this.onabort?.()
  }
  send() {
    FakeUpload.made.push(this)
  }
  fail() {
    this.onerror?.()
  }
  answer(body: unknown) {
    Object.assign(this, { status: 200, responseText: JSON.stringify(body) })
    this.onload?.()
  }
}

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

  it('a file chosen offline says it uploads when the visitor is back online, and does', async () => {
    FakeUpload.made = []
    vi.stubGlobal('XMLHttpRequest', FakeUpload)
    let online = false
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
    const { view, sent } = await withInput(fileInput(['.pdf']))
    const file = new File(['%PDF'], 'plan.pdf', { type: 'application/pdf' })
    await act(async () => {
      fireEvent.change(picker(view.container), { target: { files: [file] } })
      await settle()
    })
    await act(async () => {
      FakeUpload.made[0]!.fail()
      await settle()
    })
    expect(view.container.textContent).toContain('plan.pdf will be uploaded when you are back online.')
    await act(async () => {
      online = true
      dispatchEvent(new Event('online'))
      await settle()
    })
    expect(FakeUpload.made).toHaveLength(2)
    await act(async () => {
      FakeUpload.made[1]!.answer({ url: 'https://chat.example/v1/files/f1/plan.pdf', name: 'plan.pdf', size: 4, type: 'application/pdf' })
      await settle()
    })
    // A single file is the answer once uploaded.
    await waitFor(() => expect(JSON.stringify(sent())).toContain('https://chat.example/v1/files/f1/plan.pdf'))
  })
})
