import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import {
  acceptAttribute,
  allowedTypes,
  captureAttribute,
  fileAnswer,
  fileInputOptionsSchema,
  uploadLimitBytes,
} from '../../../protocol/uploads'
import { adoptChunkCss } from '../chunk-css'
import { ACCENT, css, v } from '../css'
import { type FileItem, useFileUploads } from './file-uploads'
import type { InputProps } from './input-props'
import { useAnswer, useAutoFocus } from './use-answer'

const FILE_INPUT_CSS = css`
.files { display: flex; flex-direction: column; gap: 8px; width: 100%; }
.drop { display: flex; flex-direction: column; align-items: center; gap: 8px; padding: 16px; border: 2px dashed ${v('button-bg', ACCENT)}; border-radius: 8px; text-align: center; }
.drop[data-over] { background: color-mix(in srgb, ${v('button-bg', ACCENT)} 12%, transparent); }
.drop .hint { font-size: 14px; }
.file-list { display: flex; flex-direction: column; gap: 6px; margin: 0; padding: 0; list-style: none; }
.file { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 8px; border-radius: 6px; background: ${v('input-bg', '#fff')}; color: ${v('input-color', '#111827')}; }
.file .name { flex: 1 1 40%; min-width: 0; overflow-wrap: anywhere; }
.file progress { flex: 1 1 30%; accent-color: ${v('button-bg', ACCENT)}; }
.file .error { flex-basis: 100%; font-size: 14px; }
.file .button { min-height: 32px; padding: 4px 10px; }
.file-actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 8px; }
`

const MB = 1024 * 1024

/** A flow's HTML label as text: never markup in the chat (it is only words here). */
const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent?.replace(/\s+/g, ' ').trim() ?? ''

/**
 * A file input (integrations.md 5.1): a drop area and a button that opens the file picker (the
 * camera on phones when the block asks), each file checked for size and type before any byte
 * leaves, then uploaded with its progress, a cancel and, after a failure, a retry that needs no
 * new choice. A single file is the answer once it is uploaded; several are sent together; an
 * optional input can be skipped. The answer is the files' URLs; the visitor's bubble says how many.
 */
export function FileInput({ widget, input, draft }: InputProps) {
  const anchor = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => adoptChunkCss(anchor.current, FILE_INPUT_CSS), [])
  const options = useMemo(() => {
    const parsed = fileInputOptionsSchema.safeParse(input.options ?? {})
    return parsed.success ? parsed.data : {}
  }, [input])
  const { lang } = widget.locale
  const limitBytes = uploadLimitBytes(options)
  const rules = {
    types: allowedTypes(options),
    limitBytes,
    multiple: options.isMultipleAllowed === true,
    limitText: new Intl.NumberFormat(lang, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(limitBytes / MB),
  }
  const { items, uploaded, add, cancel, retry } = useFileUploads(widget, draft, rules)
  const send = useAnswer(widget)
  const picker = useRef<HTMLInputElement>(null)
  const choose = useRef<HTMLButtonElement>(null)
  useAutoFocus(widget, choose)
  const [over, setOver] = useState(false)
  const hintId = useId()
  const labels = options.labels ?? {}
  const busy = items.some((item) => item.status === 'uploading')

  const answer = (urls: string[]) => {
    const success = urls.length === 1 ? labels.success?.single : labels.success?.multiple
    const label = success ? success.replace('{total}', String(urls.length)) : widget.t('filesUploaded', { count: urls.length })
    send(fileAnswer(urls), label)
  }
  // One file is the answer as soon as it is uploaded.
  useEffect(() => {
    if (!rules.multiple && uploaded.length === 1 && !busy) answer(uploaded)
  }, [uploaded.length, busy])

  const placeholder = labels.placeholder ? textOf(labels.placeholder) : widget.t('fileDrop')
  return (
    <div class="input-row" part="input-row" ref={anchor}>
      <div class="files" part="file-input">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a pointer shortcut; the file button inside does the same by keyboard */}
        <div
          class="drop"
          part="file-drop"
          data-over={over ? '' : undefined}
          onDragOver={(event) => {
            event.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(event) => {
            event.preventDefault()
            setOver(false)
            add([...(event.dataTransfer?.files ?? [])])
          }}
        >
          <span id={`${hintId}-text`}>{placeholder}</span>
          <span id={`${hintId}-limit`} class="hint">
            {widget.t('fileSizeLimit', { size: rules.limitText })}
          </span>
          <input
            ref={picker}
            type="file"
            hidden
            multiple={rules.multiple}
            accept={acceptAttribute(options)}
            capture={captureAttribute(options)}
            onChange={(event) => {
              const target = event.currentTarget
              add([...(target.files ?? [])])
              target.value = ''
            }}
          />
          <button
            ref={choose}
            type="button"
            class="button"
            part="button file-button"
            aria-describedby={`${hintId}-text ${hintId}-limit`}
            onClick={() => picker.current?.click()}
          >
            {widget.t(rules.multiple ? 'chooseFiles' : 'chooseFile')}
          </button>
        </div>
        {items.length > 0 && (
          <ul class="file-list" aria-label={widget.t('fileList')}>
            {items.map((item) => (
              <FileRow key={item.id} item={item} widget={widget} onCancel={() => cancel(item)} onRetry={() => retry(item)} />
            ))}
          </ul>
        )}
        <div class="file-actions">
          {options.isRequired === false && (
            <button
              type="button"
              class="button"
              part="button skip-button"
              disabled={busy}
              onClick={() => send(null, labels.skip || widget.t('skip'))}
            >
              {labels.skip || widget.t('skip')}
            </button>
          )}
          {rules.multiple && (
            <button
              type="button"
              class="button"
              part="button send-button"
              disabled={busy || uploaded.length === 0}
              onClick={() => answer(uploaded)}
            >
              {labels.button || widget.t('sendFiles', { count: uploaded.length })}
            </button>
          )}
        </div>
      </div>
    </div>
  )
}

/** One file: its name, its progress while uploading (cancel), its failure (retry), or done (remove). */
function FileRow({ item, widget, onCancel, onRetry }: { item: FileItem; widget: InputProps['widget']; onCancel(): void; onRetry(): void }) {
  const { name } = item
  return (
    <li class="file" part="file">
      <span class="name">{name}</span>
      {item.status === 'uploading' && <progress max={1} value={item.progress} aria-label={widget.t('uploading', { name })} />}
      {item.status === 'failed' && (
        <button type="button" class="button" part="button" aria-label={widget.t('retryUpload', { name })} onClick={onRetry}>
          {widget.t('retry')}
        </button>
      )}
      <button
        type="button"
        class="button"
        part="button"
        aria-label={widget.t(item.status === 'uploading' ? 'cancelUpload' : 'removeFile', { name })}
        onClick={onCancel}
      >
        {item.status === 'uploading' ? widget.t('cancel') : '×'}
      </button>
      <span class="error" role="status">
        {item.error ?? (item.status === 'done' ? widget.t('uploaded', { name }) : '')}
      </span>
    </li>
  )
}
