/**
 * Keeps `--fc-viewport-*` on `host` in step with the visual viewport, which shrinks when a
 * phone's on-screen keyboard opens, so a fixed chat window stays above the keyboard.
 */
export function watchVisualViewport(host: HTMLElement): () => void {
  const viewport = window.visualViewport
  if (!viewport) return () => {}
  const update = () => {
    host.style.setProperty('--fc-viewport-height', `${viewport.height}px`)
    host.style.setProperty('--fc-viewport-top', `${viewport.offsetTop}px`)
    const below = Math.max(0, window.innerHeight - viewport.offsetTop - viewport.height)
    host.style.setProperty('--fc-viewport-bottom', `${below}px`)
  }
  update()
  viewport.addEventListener('resize', update)
  viewport.addEventListener('scroll', update)
  return () => {
    viewport.removeEventListener('resize', update)
    viewport.removeEventListener('scroll', update)
    for (const name of ['height', 'top', 'bottom']) host.style.removeProperty(`--fc-viewport-${name}`)
  }
}
