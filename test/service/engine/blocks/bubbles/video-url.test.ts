import { describe, expect, it } from 'vitest'
import { parseVideoUrl } from '../../../../../src/service/engine/blocks/bubbles/video-url'

describe('parseVideoUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', { type: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://youtu.be/dQw4w9WgXcQ?t=3', { type: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://www.youtube.com/shorts/abcdef12345', { type: 'youtube', id: 'abcdef12345' }],
    ['https://www.youtube.com/embed/abcdef12345', { type: 'youtube', id: 'abcdef12345' }],
    ['https://vimeo.com/76979871', { type: 'vimeo', id: '76979871' }],
    ['https://player.vimeo.com/video/76979871', { type: 'vimeo', id: '76979871' }],
    ['https://cdn.example.com/clip.mp4', { type: 'url' }],
    ['https://www.youtube.com/watch?v=<bad>', { type: 'url' }],
    ['not a url', { type: 'url' }],
  ])('%s', (url, expected) => {
    expect(parseVideoUrl(url)).toEqual(expected)
  })
})
