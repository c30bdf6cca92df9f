import ts from 'typescript'

/**
 * How a strict TypeScript user of the package compiles: bundler resolution, React's JSX, the DOM
 * library, and only the types a file imports (no ambient @types of Node or React sneak in). The
 * declarations' tests (jsx-typings.test.ts) and the docs' TypeScript examples compile with it.
 */
export const CONSUMER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  // The emitted declarations are checked too (only they and the compiled files are asked for diagnostics).
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
}
