import { describe, expect, it } from 'vitest'
import { markdownHtml as html } from './markdown-as-is'

describe('Markdown answers', () => {
  it('renders headings, lists, emphasis, line breaks, code and links', () => {
    const host = html(
      '## Plan\n\n1. **Bold** and *em*\n2. `code`\n\nLine one\nline two\n\n```ts\nconst a = 1 < 2\n```\n\nSee [the docs](https://example.com/docs).',
    )
    expect(host.querySelector('h2')?.textContent).toBe('Plan')
    expect(host.querySelectorAll('ol > li')).toHaveLength(2)
    expect(host.querySelector('strong')?.textContent).toBe('Bold')
    expect(host.querySelector('em')?.textContent).toBe('em')
    expect(host.querySelector('li code')?.textContent).toBe('code')
    expect(host.querySelector('p br')).not.toBeNull()
    expect(host.querySelector('pre code')?.textContent).toBe('const a = 1 < 2\n')
    expect(host.querySelector('a')?.getAttribute('href')).toBe('https://example.com/docs')
  })

  it('shows an image as a link to it, never loading it by itself', () => {
    const host = html('![a chart](https://example.com/chart.png)')
    expect(host.querySelector('img')).toBeNull()
    expect(host.querySelector('a')?.getAttribute('href')).toBe('https://example.com/chart.png')
    expect(host.textContent?.trim()).toBe('a chart')
  })

  it('shows raw HTML, inline or as a block, as the text it is', () => {
    const host = html('Use <b onclick="x()">bold</b> tags\n\n<script>window.x = 1</script>\n\n<img src=x onerror=y>')
    expect(host.querySelector('b, script, img')).toBeNull()
    expect(host.textContent).toContain('Use <b onclick="x()">bold</b> tags')
    expect(host.textContent).toContain('<script>window.x = 1</script>')
    expect(host.textContent).toContain('<img src=x onerror=y>')
  })
})
