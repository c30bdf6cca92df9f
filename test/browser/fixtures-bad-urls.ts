import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BAD_URLS } from '../widget/content/bad-url-corpus'

/** A harmless inline image, to show the allow-list still lets a good `data:` image through. */
export const GOOD_DATA_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='
export const CORPUS_END = 'End of the bad-URL corpus'

/**
 * The corpus entries a flow can carry: the service refuses to store text with NUL characters, so
 * those never reach a widget (the unit tests of the allow-list still cover them).
 */
export const FLOW_CORPUS = BAD_URLS.filter(({ url }) => !url.includes('\u0000'))

const paragraph = (children: unknown[]) => ({ type: 'p', children })

/**
 * A flow that puts every corpus URL in every position a flow controls: an image and its click
 * link, a video, an embed, a rich-text link and an HTML link. Returns the path of the flow file.
 */
export function writeBadUrlFlow(): string {
  const blocks: unknown[] = []
  FLOW_CORPUS.forEach(({ attack, url }, index) => {
    const id = `b${index}`
    blocks.push(
      { id: `${id}-label`, type: 'text', content: { richText: [paragraph([{ text: `Attack ${index}: ${attack}` }])] } },
      { id: `${id}-image`, type: 'image', content: { url, clickLink: { url, alt: `image ${index}` } } },
      { id: `${id}-video`, type: 'video', content: { type: 'url', url } },
      { id: `${id}-embed`, type: 'embed', content: { url, height: 80 } },
      {
        id: `${id}-rich-link`,
        type: 'text',
        content: { richText: [paragraph([{ type: 'a', url, children: [{ text: `rich link ${index}` }] }])] },
      },
      {
        id: `${id}-html-link`,
        type: 'text',
        content: {
          richText: [],
          html: `<p><a href="${url.replace(/"/g, '&quot;')}">html link ${index}</a></p>`,
          plainText: `html link ${index}`,
        },
      },
    )
  })
  blocks.push(
    { id: 'good-image', type: 'image', content: { url: GOOD_DATA_IMAGE, clickLink: { alt: 'good inline image' } } },
    { id: 'end', type: 'text', content: { richText: [paragraph([{ text: CORPUS_END }])] } },
  )
  const flow = {
    version: '6',
    name: 'Bad URL corpus',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e-start' }],
    variables: [],
    settings: { typingEmulation: { enabled: false } },
    groups: [{ id: 'g1', title: 'Corpus', blocks }],
    edges: [{ id: 'e-start', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
  }
  const file = join(mkdtempSync(join(tmpdir(), 'flow-chat-bad-urls-')), 'bad-urls.json')
  writeFileSync(file, JSON.stringify(flow))
  return file
}
