import { describe, expect, it } from 'vitest'
import { createSanitizer } from '../../../src/widget/content/purify'

const sanitize = async (html: string) => {
  const run = createSanitizer()
  const host = document.createElement('div')
  host.append(run(html))
  return host
}

describe('html sanitizer', () => {
  it('removes scripts, event handlers, styles and frames', async () => {
    const host = await sanitize(
      '<p onclick="alert(1)" style="color:red">Hi<script>alert(2)</script></p><img src="https://x.example/a.png" onerror="alert(3)"><iframe src="https://evil.example"></iframe><svg><script>alert(4)</script></svg><form><input></form>',
    )
    expect(host.querySelector('script, iframe, svg, form, input, style')).toBeNull()
    expect(host.innerHTML).not.toMatch(/onclick|onerror|style=|alert/)
    expect(host.textContent).toBe('Hi')
    expect(host.querySelector('img')?.getAttribute('src')).toBe('https://x.example/a.png')
  })

  it('drops javascript: links and opens the others in a new tab without opener', async () => {
    const host = await sanitize(
      '<a href="javascript:alert(1)">bad</a><a href="https://example.com">good</a><a href="mailto:a@b.c">mail</a>',
    )
    expect(host.innerHTML).not.toMatch(/javascript/i)
    expect(host.textContent).toBe('badgoodmail')
    const good = host.querySelector('a[href^="https:"]')
    const mail = host.querySelector('a[href^="mailto:"]')
    expect(good?.getAttribute('target')).toBe('_blank')
    expect(good?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(mail?.getAttribute('href')).toBe('mailto:a@b.c')
  })

  it('drops images whose source is not http(s)', async () => {
    const host = await sanitize('<img src="data:image/svg+xml,<svg onload=alert(1)>"><img src="javascript:alert(1)">')
    expect(host.querySelector('img')).toBeNull()
  })
})
