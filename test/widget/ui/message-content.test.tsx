import { act, cleanup, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../src/protocol/index'
import { settle, startResponse, textInput } from '../chat/fake-client'
import { MARKDOWN_XSS_CORPUS } from '../content/markdown-xss-corpus'
import { renderApp } from './render-app'

afterEach(cleanup)

async function showMessages(messages: ChatMessage[]) {
  const setup = renderApp({ start: startResponse({ messages, input: textInput() }) })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  // Players come in their own chunk, requested with the step: a bubble is empty until it is here.
  await waitFor(() => expect(setup.view.container.querySelectorAll('.bubble.media:empty')).toHaveLength(0))
  // Typing dots stand in for an image bubble while its picture loads: they are not bubbles.
  const bubbles = Array.from(setup.view.container.querySelectorAll<HTMLElement>('[part~="host-bubble"]:not([part~="typing"])'))
  return { ...setup, bubbles }
}

describe('host bubbles', () => {
  it('render richText as elements, ahead of html and plainText', async () => {
    const { bubbles } = await showMessages([
      {
        id: 'm1',
        type: 'text',
        content: {
          richText: [{ type: 'p', children: [{ text: 'Hello ' }, { text: 'Ada', bold: true }] }],
          html: '<p>html version</p>',
          plainText: 'plain version',
        },
      },
    ])
    expect(bubbles[0]?.querySelector('p strong')?.textContent).toBe('Ada')
    expect(bubbles[0]?.textContent).toBe('Hello Ada')
  })

  it('render a bubble whose variables hold Markdown through the answer sanitiser, hostile values inert', async () => {
    const markdown = (text: string): ChatMessage => ({
      id: `m-${text.length}`,
      type: 'text',
      content: { richText: [{ type: 'p', children: [{ text }] }], plainText: text, markdown: `Answer: ${text}` },
    })
    const { bubbles } = await showMessages([
      markdown('**Paris** is\n\n- big\n- old'),
      ...MARKDOWN_XSS_CORPUS.map(({ markdown: m }, i) => ({ ...markdown(m), id: `x${i}` })),
    ])
    await waitFor(() => expect(bubbles[0]?.querySelector('strong')?.textContent).toBe('Paris'))
    await waitFor(() => expect([...bubbles[0]!.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['big', 'old']))
    for (const [i, { attack, survives }] of MARKDOWN_XSS_CORPUS.entries()) {
      const bubble = bubbles[i + 1]!
      await waitFor(() => expect(bubble.textContent, attack).toContain(survives ?? 'Answer:'))
      expect(bubble.querySelector('script, img, iframe, svg, style, form, object, embed, meta'), attack).toBeNull()
      for (const element of bubble.querySelectorAll('*')) {
        for (const attribute of element.attributes)
          expect(`${attribute.name}=${attribute.value}`, attack).not.toMatch(/^on|javascript:|data:text/i)
      }
      if (survives) expect(bubble.textContent, attack).toContain(survives)
    }
  })

  it('render sanitised html when there is no richText', async () => {
    const { bubbles } = await showMessages([
      {
        id: 'm1',
        type: 'text',
        content: { html: '<p>Hi <a href="javascript:alert(1)">there</a><script>alert(2)</script><img src=x onerror="alert(3)"></p>' },
      },
    ])
    const bubble = bubbles[0]!
    await waitFor(() => expect(bubble.querySelector('.rt:not([hidden])')).not.toBeNull())
    expect(bubble.querySelector('script')).toBeNull()
    expect(bubble.innerHTML).not.toMatch(/javascript:|onerror|alert/)
    expect(bubble.textContent).toContain('Hi there')
  })

  it('render plainText as text, never as markup', async () => {
    const { bubbles } = await showMessages([{ id: 'm1', type: 'text', content: { plainText: '<b>not bold</b>\nsecond line' } }])
    expect(bubbles[0]?.querySelector('b')).toBeNull()
    expect(bubbles[0]?.textContent).toBe('<b>not bold</b>\nsecond line')
  })

  it('render images, linked images, video, audio and sandboxed embeds', async () => {
    const { bubbles } = await showMessages([
      { id: 'i1', type: 'image', content: { url: 'https://cdn.example/cat.gif' } },
      {
        id: 'i2',
        type: 'image',
        content: { url: 'https://cdn.example/dog.gif', clickLink: { url: 'https://dogs.example', alt: 'A dog' } },
      },
      { id: 'v1', type: 'video', content: { type: 'youtube', id: 'dQw4w9WgXcQ' } },
      { id: 'v2', type: 'video', content: { url: 'https://cdn.example/clip.mp4', type: 'url' } },
      { id: 'a1', type: 'audio', content: { url: 'https://cdn.example/a.mp3' } },
      { id: 'e1', type: 'embed', content: { url: 'https://forms.example/x', height: 300 } },
      { id: 'i3', type: 'image', content: { url: 'javascript:alert(1)' } },
    ])
    const [cat, dog, youtube, clip, audio, embed, unsafe] = bubbles
    expect(cat?.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/cat.gif')
    const link = dog?.querySelector('a')
    expect(link?.getAttribute('href')).toBe('https://dogs.example/')
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(within(dog!).getByAltText('A dog')).toBeTruthy()
    expect(youtube?.querySelector('iframe')?.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(clip?.querySelector('video')?.getAttribute('src')).toBe('https://cdn.example/clip.mp4')
    expect(audio?.querySelector('audio')?.hasAttribute('controls')).toBe(true)
    const frame = embed?.querySelector('iframe')
    expect(frame?.getAttribute('sandbox')).not.toContain('allow-same-origin')
    expect(frame?.getAttribute('height')).toBe('300')
    expect(unsafe?.querySelector('img')).toBeNull()
    expect(unsafe?.textContent).toBe('Image unavailable')
  })

  it('names each hosted player by its provider, so frames on one page never share a title', async () => {
    const { bubbles } = await showMessages([
      { id: 'v1', type: 'video', content: { type: 'youtube', id: 'aqz-KE-bpKQ' } },
      { id: 'v2', type: 'video', content: { type: 'vimeo', id: '76979871', height: 220 } },
    ])
    const [youtube, vimeo] = bubbles.map((bubble) => bubble.querySelector('iframe'))
    expect(youtube?.getAttribute('title')).toBe('YouTube video')
    expect(vimeo?.getAttribute('title')).toBe('Vimeo video')
    expect(vimeo?.getAttribute('src')).toBe('https://player.vimeo.com/video/76979871')
    expect(vimeo?.getAttribute('height')).toBe('220')
    expect(vimeo?.getAttribute('sandbox')).toContain('allow-scripts')
  })

  it('refuses video ids that would change the player address', async () => {
    const { bubbles } = await showMessages([{ id: 'v', type: 'video', content: { type: 'youtube', id: '../../evil?x=' } }])
    expect(bubbles[0]?.querySelector('iframe')).toBeNull()
    expect(screen.getAllByText('Video unavailable').length).toBeGreaterThan(0)
  })
})
