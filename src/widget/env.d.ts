// `import.meta.env.DEV` (development-only console output) is replaced by Vite at build time.
/// <reference types="vite/client" />
