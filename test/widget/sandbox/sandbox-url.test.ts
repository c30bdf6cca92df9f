import { describe, expect, it } from 'vitest'
import { sandboxDocumentUrl } from '../../../src/widget/sandbox/sandbox-url'

const BASE = 'https://shop.example/products/'

describe('sandboxDocumentUrl', () => {
  it('resolves the URL against the page and marks the network variant', () => {
    const strict = sandboxDocumentUrl('https://service.example/sandbox/v1/sandbox.html#x', false, BASE)
    expect(String(strict)).toBe('https://service.example/sandbox/v1/sandbox.html')
    const network = sandboxDocumentUrl('/sandbox/v1/sandbox.html?network=0', true, BASE)
    expect(String(network)).toBe('https://shop.example/sandbox/v1/sandbox.html?network=1')
    expect(String(sandboxDocumentUrl('/s.html?network=1&v=2', false, BASE))).toBe('https://shop.example/s.html?v=2')
  })

  it('refuses anything but http(s), which would not be a sandbox with its own CSP', () => {
    expect(sandboxDocumentUrl('javascript:alert(1)', false, BASE)).toBe('The script sandbox URL must be an http(s) URL, not "javascript:"')
    expect(sandboxDocumentUrl('data:text/html,<script>1</script>', false, BASE)).toMatch(/not "data:"/)
    expect(sandboxDocumentUrl('http://[::1', false, BASE)).toBe('The script sandbox URL "http://[::1" is not a valid URL')
  })
})
