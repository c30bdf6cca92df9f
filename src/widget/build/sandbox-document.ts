import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { build, type Plugin, type Rolldown } from 'vite'
import { sandboxPolicy } from '../../protocol/sandbox-policy.ts'

const DOCUMENT_DIR = join(import.meta.dirname, '../sandbox/document')
/** Where the document lands in dist/, and what the flow service serves at /sandbox/v1/. */
export const SANDBOX_OUT_DIR = 'sandbox'

/** One classic script, minified, with nothing global left behind. */
async function bundle(entry: string, define: Record<string, string> = {}): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    define,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry, formats: ['iife'], name: 'flowChatSandbox', fileName: () => 'out.js' },
      rolldownOptions: { output: { minify: true } },
    },
  })) as Rolldown.RolldownOutput[]
  const chunk = output[0]?.output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk')
  if (!chunk) throw new Error(`building ${entry} produced no script`)
  return chunk.code
}

const integrity = (code: string) => `sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}`

/** The document: its policy written into it, its one script allowed by digest. */
export function sandboxHtml(script: string): string {
  const hash = integrity(script)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${sandboxPolicy([hash], { network: true, delivery: 'meta' })}">
<meta name="robots" content="noindex">
<title>flow-chat script sandbox</title>
</head>
<body>
<!-- Runs flow scripts for the flow-chat widget; built from src/widget/sandbox/document. -->
<script src="sandbox.js" integrity="${hash}" crossorigin="anonymous"></script>
</body>
</html>
`
}

/**
 * Builds the script sandbox document (sandbox.html and sandbox.js) from its typed sources, beside
 * the widget: the Worker is bundled first and handed to the relay as text (an opaque-origin
 * document can only start a blob: Worker), so both share the widget's patterns and limits.
 */
export function sandboxDocument(): Plugin {
  let files: Promise<Record<string, string>> | undefined
  return {
    name: 'flow-chat-sandbox-document',
    async generateBundle(output) {
      if (output.format !== 'es') return
      files ??= (async () => {
        const worker = await bundle(join(DOCUMENT_DIR, 'worker.ts'))
        const relay = await bundle(join(DOCUMENT_DIR, 'relay.ts'), { FLOW_CHAT_SANDBOX_WORKER: JSON.stringify(worker) })
        return { 'sandbox.js': relay, 'sandbox.html': sandboxHtml(relay) }
      })()
      for (const [name, source] of Object.entries(await files)) {
        this.emitFile({ type: 'asset', fileName: `${SANDBOX_OUT_DIR}/${name}`, source })
      }
    },
  }
}
