import type { Signal } from '@preact/signals'
import { useEffect, useRef, useState } from 'preact/hooks'
import { acceptsFile, fileIdOfUrl, type UploadedFile } from '../../../protocol/uploads'
import { isOffline, isTransportError, whenOnline } from '../../transport/index'
import { uploadFile } from '../../transport/upload'
import type { Widget } from '../widget'

/**
 * One file of a file input: `checking` refused before sending (`error`), `uploading` with its
 * progress (0 to 1), `done` with its URL, or `failed` (kept with its File, to retry without
 * choosing it again).
 */
export interface FileItem {
  id: number
  name: string
  status: 'refused' | 'uploading' | 'done' | 'failed'
  progress: number
  url?: string
  error?: string
  file?: File
  controller?: AbortController
}

export interface FileRules {
  types: string[] | undefined
  limitBytes: number
  multiple: boolean
  /** "10 MB" in the chat's language. */
  limitText: string
}

/** The name a file URL ends with (what the service answered), for files restored from the draft. */
const nameOfUrl = (url: string) => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
  } catch {
    return url
  }
}

/**
 * The files of one file input and their uploads. What is uploaded is the input's draft (its
 * answer so far: the URLs joined with ", "), saved with a remembered conversation, so a reload
 * shows it uploaded; an upload in flight at a reload is lost with the page (its file is the
 * visitor's to choose again).
 */
export function useFileUploads(widget: Widget, draft: Signal<string>, rules: FileRules) {
  const next = useRef(0)
  const [items, setItems] = useState<FileItem[]>(() =>
    draft
      .peek()
      .split(', ')
      .filter((url) => fileIdOfUrl(url) !== undefined)
      .map((url) => ({ id: next.current++, name: nameOfUrl(url), status: 'done', progress: 1, url })),
  )
  const current = useRef(items)
  current.current = items
  const update = (id: number, change: Partial<FileItem>) =>
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)))

  // The uploaded files are the draft; saved as they change.
  const uploaded = items.filter((item) => item.status === 'done' && item.url).map((item) => item.url!)
  const answer = uploaded.join(', ')
  useEffect(() => {
    if (draft.peek() === answer) return
    draft.value = answer
    widget.conversation.keep()
  }, [answer])
  // Uploads still running when the input goes (answered, the chat reset) stop.
  useEffect(
    () => () => {
      for (const item of current.current) item.controller?.abort()
    },
    [],
  )

  const start = (item: FileItem) => {
    const session = widget.conversation.session()
    if (!session || !item.file) return
    item.controller?.abort()
    const controller = new AbortController()
    update(item.id, { status: 'uploading', progress: 0, error: undefined, controller })
    uploadFile(session.chat, session.id, item.file, (progress) => update(item.id, { progress }), controller.signal).then(
      (file: UploadedFile) => update(item.id, { status: 'done', progress: 1, url: file.url, name: file.name, controller: undefined }),
      (error: unknown) => {
        if (isTransportError(error) && error.kind === 'aborted') return
        if (isOffline()) {
          // Offline: it says so and uploads by itself once the network is back (or on Retry).
          const waiting = new AbortController()
          update(item.id, { status: 'failed', controller: waiting, error: widget.t('uploadOffline', { name: item.name }) })
          whenOnline(waiting.signal).then(
            () => start({ ...item, controller: undefined }),
            () => {},
          )
          return
        }
        update(item.id, { status: 'failed', controller: undefined, error: widget.t('uploadFailed', { name: item.name }) })
      },
    )
  }

  /** Checks the chosen files (size and type, before any byte leaves) and uploads those that pass. */
  const add = (files: File[]) => {
    const chosen = rules.multiple ? files : files.slice(0, 1)
    const added = chosen.map((file): FileItem => {
      const base = { id: next.current++, name: file.name, progress: 0, file }
      if (file.size > rules.limitBytes)
        return { ...base, status: 'refused', error: widget.t('fileTooBig', { name: file.name, size: rules.limitText }) }
      if (!acceptsFile(rules.types, file)) return { ...base, status: 'refused', error: widget.t('fileNotAccepted', { name: file.name }) }
      return { ...base, status: 'uploading' }
    })
    // A single-file input holds one file: a new choice replaces the last.
    setItems((list) => [...(rules.multiple ? list : []), ...added])
    if (!rules.multiple) for (const item of current.current) item.controller?.abort()
    for (const item of added) if (item.status === 'uploading') start(item)
  }

  const cancel = (item: FileItem) => {
    item.controller?.abort()
    setItems((list) => list.filter((other) => other.id !== item.id))
  }

  return { items, uploaded, add, cancel, retry: start }
}
