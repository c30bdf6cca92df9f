import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'

/** While typing, the visitor is told again at most this often; silence this long says "stopped". */
const TYPING_EVERY_MS = 3_000
const TYPING_IDLE_MS = 4_000

/** A message's own key, kept for a retry (crypto.randomUUID needs a secure context; the console may run without one). */
function messageKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * What the person answers: Enter sends, Shift+Enter starts a new line. The visitor sees "typing…"
 * while the person types (told every few seconds, and told when they stop). A message that could
 * not be sent stays in the box with the same key, so sending it again stores it once.
 */
export function ReplyBox(props: {
  maxLength: number
  onSend(text: string, idempotencyKey: string): Promise<boolean>
  onTyping(typing: boolean): unknown
}) {
  const text = useSignal('')
  const sending = useSignal(false)
  const key = useRef<string | null>(null)
  const lastTold = useRef(0)
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const stopTyping = () => {
    clearTimeout(idle.current)
    if (lastTold.current) {
      lastTold.current = 0
      props.onTyping(false)
    }
  }
  useEffect(() => stopTyping, [])

  const typed = (value: string) => {
    text.value = value
    // A key belongs to the words it was sent with: an edited message is a new one.
    key.current = null
    if (!value.trim()) return stopTyping()
    const now = Date.now()
    if (now - lastTold.current > TYPING_EVERY_MS) {
      lastTold.current = now
      props.onTyping(true)
    }
    clearTimeout(idle.current)
    idle.current = setTimeout(stopTyping, TYPING_IDLE_MS)
  }

  const send = async (event?: Event) => {
    event?.preventDefault()
    const message = text.value.trim()
    if (!message || sending.value) return
    key.current ??= messageKey()
    sending.value = true
    try {
      if (await props.onSend(message, key.current)) {
        text.value = ''
        key.current = null
        stopTyping()
      }
    } finally {
      sending.value = false
    }
  }

  return (
    <form class="reply" onSubmit={send}>
      <label for="reply-text">Reply to the visitor</label>
      <p id="reply-help" class="help">
        Enter sends; Shift+Enter starts a new line.
      </p>
      <textarea
        id="reply-text"
        rows={3}
        maxLength={props.maxLength}
        aria-describedby="reply-help"
        value={text.value}
        onInput={(event) => typed(event.currentTarget.value)}
        onBlur={stopTyping}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) void send(event)
        }}
      />
      <button type="submit" disabled={sending.value}>
        Send
      </button>
    </form>
  )
}
