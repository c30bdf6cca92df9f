import { signal } from '@preact/signals'
import { describe, expect, it } from 'vitest'
import type { StreamedAnswer } from '../../../src/widget/chat/index'
import { mountAnswer } from '../../../src/widget/ui/streamed-answer'
import { renderAsIs as render } from '../content/markdown-as-is'

/** A streamed answer a test writes to, as the runner does. */
function answer(initial = '') {
  const listeners = new Set<(text: string, reset: boolean) => void>()
  let text = initial
  const stream: StreamedAnswer = {
    status: signal('streaming'),
    error: signal(null),
    get text() {
      return text
    },
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    retry() {},
  }
  const tell = (piece: string, reset: boolean) => {
    text = reset ? piece : text + piece
    for (const listener of listeners) listener(piece, reset)
  }
  return { stream, append: (piece: string) => tell(piece, false), replace: (whole: string) => tell(whole, true) }
}

const ANSWER =
  '## Steps\n\n1. Open **settings**\n2. Pick a plan\n\n```sh\nnpm ci\n\nnpm test\n```\n\nDone, see [docs](https://example.com).'

describe('mountAnswer', () => {
  it('ends with the same nodes as rendering the whole answer at once, whatever the pieces', () => {
    const whole = document.createElement('div')
    whole.append(render(ANSWER))
    for (const size of [1, 4, 9]) {
      const root = document.createElement('div')
      const { stream, append } = answer()
      const view = mountAnswer(root, stream, render, () => {})
      for (let at = 0; at < ANSWER.length; at += size) append(ANSWER.slice(at, at + size))
      view.flush()
      expect(root.textContent, `pieces of ${size}`).toBe(whole.textContent)
      expect(root.querySelectorAll('h2, ol > li, pre, a')).toHaveLength(5)
      view.dispose()
    }
  })

  it('never renders a completed block again: later pieces leave its nodes alone', () => {
    const root = document.createElement('div')
    const { stream, append } = answer()
    const view = mountAnswer(root, stream, render, () => {})
    append('First paragraph.\n\nSecond')
    view.flush()
    const first = root.querySelector('p')
    expect(first?.textContent).toBe('First paragraph.')
    for (let index = 0; index < 200; index++) append(` word${index}`)
    view.flush()
    expect(root.querySelector('p')).toBe(first)
    expect(root.textContent).toContain('word199')
    view.dispose()
  })

  it('shows text already there when it mounts, and starts over on a reset', () => {
    const root = document.createElement('div')
    const { stream, replace, append } = answer('Partial *answer*')
    const view = mountAnswer(root, stream, render, () => {})
    view.flush()
    expect(root.querySelector('em')?.textContent).toBe('answer')
    replace('A new answer')
    append(' again')
    view.flush()
    expect(root.textContent?.trim()).toBe('A new answer again')
    view.dispose()
    append(' ignored after dispose')
    expect(root.textContent?.trim()).toBe('A new answer again')
  })

  it("renders a long answer arriving at once a frame's work at a time, so the page paints between its blocks", async () => {
    const root = document.createElement('div')
    const { stream, append } = answer()
    let rendered = 0
    // Each block takes at least 3 ms here, as a hard one would in a slow browser.
    const slow = (markdown: string) => {
      const until = performance.now() + 3
      while (performance.now() < until);
      rendered++
      return render(markdown)
    }
    const view = mountAnswer(root, stream, slow, () => {})
    const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} of a long answer.`)
    append(paragraphs.join('\n\n'))
    expect(rendered).toBe(0)
    const perFrame: number[] = []
    while (root.querySelectorAll('p').length < paragraphs.length) {
      const before = rendered
      await new Promise(requestAnimationFrame)
      perFrame.push(rendered - before)
    }
    // An 8 ms budget: a block, then others only while time is left.
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(3)
    expect([...root.querySelectorAll('p')].map((p) => p.textContent)).toEqual(paragraphs)
    view.dispose()
  })
})
