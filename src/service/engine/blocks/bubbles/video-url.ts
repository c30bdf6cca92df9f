/**
 * Flow builders store a video as the address the author pasted. The widget embeds YouTube and
 * Vimeo through their players, which need the provider and the video id rather than a page URL.
 */
export interface VideoSource {
  type: 'url' | 'youtube' | 'vimeo'
  id?: string
}

const YOUTUBE_HOSTS = new Set(['youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com'])
const YOUTUBE_PATH = /^\/(?:embed|shorts|live|v)\/([\w-]{6,})/
const VIMEO_PATH = /^\/(?:video\/)?(\d+)/
const ID = /^[\w-]{6,}$/

export function parseVideoUrl(url: string): VideoSource {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { type: 'url' }
  }
  const host = parsed.hostname.replace(/^www\./, '')
  if (host === 'youtu.be') return youtube(parsed.pathname.slice(1).split('/')[0])
  if (YOUTUBE_HOSTS.has(host)) {
    if (parsed.pathname === '/watch') return youtube(parsed.searchParams.get('v'))
    return youtube(YOUTUBE_PATH.exec(parsed.pathname)?.[1])
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = VIMEO_PATH.exec(parsed.pathname)?.[1]
    if (id) return { type: 'vimeo', id }
  }
  return { type: 'url' }
}

function youtube(id: string | null | undefined): VideoSource {
  return id && ID.test(id) ? { type: 'youtube', id } : { type: 'url' }
}
