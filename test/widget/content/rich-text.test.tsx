import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { renderRichText } from '../../../src/widget/content/rich-text'

afterEach(cleanup)

const show = (nodes: unknown[]) => render(<div>{renderRichText(nodes)}</div>).container.firstElementChild as HTMLElement

describe('renderRichText', () => {
  it('renders paragraphs, marks and lists as elements', () => {
    const root = show([
      { type: 'p', children: [{ text: 'Hi ' }, { text: 'bold', bold: true }, { text: 'both', bold: true, italic: true }] },
      { type: 'ol', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'first' }] }] }] },
    ])
    expect(root.querySelector('p strong')?.textContent).toBe('bold')
    expect(root.querySelector('em strong')?.textContent).toBe('both')
    expect(root.querySelector('ol > li')?.textContent).toBe('first')
  })

  it('keeps text as text: markup inside a leaf is never parsed', () => {
    const root = show([{ type: 'p', children: [{ text: '<img src=x onerror=alert(1)><script>alert(2)</script>' }] }])
    expect(root.querySelector('img, script')).toBeNull()
    expect(root.textContent).toContain('<script>')
  })

  it('opens safe links in a new tab without opener and drops unsafe ones', () => {
    const root = show([
      { type: 'p', children: [{ type: 'a', url: 'https://example.com', children: [{ text: 'ok' }] }] },
      { type: 'p', children: [{ type: 'a', url: 'javascript:alert(1)', children: [{ text: 'bad' }] }] },
    ])
    const links = root.querySelectorAll('a')
    expect(links).toHaveLength(1)
    expect(links[0]?.getAttribute('href')).toBe('https://example.com/')
    expect(links[0]?.getAttribute('target')).toBe('_blank')
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(root.textContent).toContain('bad')
  })

  it('maps unknown and attacker-chosen types to inert wrappers, and survives junk', () => {
    const root = show([
      { type: 'script', children: [{ text: 'alert(1)' }] },
      { type: 'iframe', url: 'https://evil.example', children: [] },
      null,
      7,
      { nope: true },
    ])
    expect(root.querySelector('script, iframe')).toBeNull()
    expect(root.textContent).toBe('alert(1)')
  })

  it('stops at a safe depth instead of overflowing the stack', () => {
    let node: unknown = { text: 'deep' }
    for (let i = 0; i < 10_000; i++) node = { type: 'p', children: [node] }
    expect(() => show([node])).not.toThrow()
  })
})
