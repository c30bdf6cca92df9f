import { render } from 'preact'
import { App } from './app'

// The console's one entry (src/admin/build/console-build.ts bundles it): the page holds nothing else.
const root = document.getElementById('console')
if (root) render(<App />, root)
