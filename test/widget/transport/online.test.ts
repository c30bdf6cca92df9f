import { afterEach, describe, expect, it } from 'vitest'
import { isOffline, whenOnline } from '../../../src/widget/transport/index'

let online = true
const setOnline = (value: boolean) => {
  online = value
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
}
afterEach(() => Reflect.deleteProperty(navigator, 'onLine'))

describe('waiting for the network', () => {
  it('resolves at once when the browser is online', async () => {
    setOnline(true)
    expect(isOffline()).toBe(false)
    await expect(whenOnline(new AbortController().signal)).resolves.toBeUndefined()
  })

  it("resolves on the browser's online event while offline", async () => {
    setOnline(false)
    expect(isOffline()).toBe(true)
    let done = false
    const waiting = whenOnline(new AbortController().signal).then(() => (done = true))
    await Promise.resolve()
    expect(done).toBe(false)
    setOnline(true)
    dispatchEvent(new Event('online'))
    await waiting
    expect(done).toBe(true)
  })

  it('rejects as aborted when its signal is', async () => {
    setOnline(false)
    const controller = new AbortController()
    const waiting = whenOnline(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' })
  })
})
