import { signal } from '@preact/signals'
import type { ComponentChildren, FunctionComponent } from 'preact'
import { useEffect } from 'preact/hooks'
import { chunkFailure, type DiagnosticCode } from '../chat/index'
import type { WidgetProps } from './widget'

/** A lazy view's own props: the widget (whose `emit` logs a chunk that cannot load) goes on to the loaded view. */
type ViewProps = WidgetProps & { loading?: ComponentChildren; fallback?: ComponentChildren }

export interface LazyView<P> {
  /** Renders the view once its chunk is here, `loading` until then, `fallback` if it cannot load. */
  View: FunctionComponent<P & ViewProps>
  /** Requests the chunk now, so the view is ready when it is needed; settles once it is here or could not load. */
  preload(): Promise<void>
}

/**
 * A view whose code is a lazily loaded chunk beside the core script. The chunk is requested as
 * soon as anything calls `preload` (the conversation announces what it will show) or the view
 * first renders; a chunk that failed is requested again the next time.
 */
export function lazyView<P extends object>(
  name: string,
  load: () => Promise<FunctionComponent<P>>,
  code: DiagnosticCode = 'chunk-load-failed',
): LazyView<P> {
  const component = signal<FunctionComponent<P> | null>(null)
  const failed = signal<unknown>(null)
  let pending: Promise<void> | undefined
  const preload = () => {
    if (pending) return pending
    pending = load().then(
      (loaded) => {
        failed.value = null
        component.value = loaded
      },
      (error: unknown) => {
        pending = undefined
        failed.value = error
      },
    )
    return pending
  }
  function View({ loading = null, fallback = null, ...props }: P & ViewProps) {
    const { emit } = props.widget
    const Loaded = component.value
    const error = failed.value
    // Requested while rendering, not after paint: the theme's view renders with the chat, so its
    // chunk is on its way in the same task as the conversation's first requests.
    if (!Loaded && !error) preload()
    // A view mounted after its chunk failed tries once more.
    useEffect(() => {
      if (!Loaded) preload()
    }, [Loaded])
    useEffect(() => {
      if (error) emit('flowchat:log', chunkFailure(name, error, code))
    }, [error])
    if (Loaded) return <Loaded {...(props as P)} />
    return <>{error ? fallback : loading}</>
  }
  return { View, preload }
}
