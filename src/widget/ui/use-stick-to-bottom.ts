import type { RefObject } from 'preact'
import { useLayoutEffect } from 'preact/hooks'

/** Within this many pixels of the end, the visitor counts as "at the bottom". */
const THRESHOLD_PX = 48

/**
 * Keeps the newest message in view while the visitor is at the bottom; once they scroll up to
 * read, new content no longer moves the view. Watching the content's size (not message counts)
 * also covers images that load late and the input appearing.
 */
export function useStickToBottom(scroller: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const box = scroller.current
    const inner = content.current
    if (!box || !inner || typeof ResizeObserver === 'undefined') return
    let stick = true
    const onScroll = () => {
      stick = box.scrollHeight - box.scrollTop - box.clientHeight <= THRESHOLD_PX
    }
    // Instant, not smooth: a smooth scroll's intermediate positions would read as "scrolled up".
    const observer = new ResizeObserver(() => {
      if (stick) box.scrollTop = box.scrollHeight
    })
    box.addEventListener('scroll', onScroll, { passive: true })
    observer.observe(inner)
    return () => {
      box.removeEventListener('scroll', onScroll)
      observer.disconnect()
    }
  }, [])
}
