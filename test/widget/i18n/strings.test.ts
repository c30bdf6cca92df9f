import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { TRANSLATED_LANGUAGES } from '../../../src/protocol/languages'
import { ENGLISH, type Translation } from '../../../src/widget/i18n/strings'

const I18N = resolve(import.meta.dirname, '../../../src/widget/i18n')

/** Each entry of the ENGLISH table as written in strings.ts: its id and the note above it. */
function entries(): Array<{ id: string; note: string }> {
  const file = ts.createSourceFile('strings.ts', readFileSync(resolve(I18N, 'strings.ts'), 'utf8'), ts.ScriptTarget.ES2022, true)
  const found: Array<{ id: string; note: string }> = []
  file.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return
    for (const declaration of node.declarationList.declarations) {
      if (declaration.name.getText() !== 'ENGLISH' || !declaration.initializer || !ts.isObjectLiteralExpression(declaration.initializer))
        continue
      for (const property of declaration.initializer.properties) {
        const docs = ts.getJSDocCommentsAndTags(property).map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
        found.push({ id: property.name!.getText(), note: docs.join(' ').trim() })
      }
    }
  })
  return found
}

/** The `{name}` marks of a text, or of each form of a plural. */
const marks = (text: string | Record<string, string>) =>
  [...new Set((typeof text === 'string' ? [text] : Object.values(text)).flatMap((form) => form.match(/\{\w+\}/g) ?? []))].sort()

const translations = async () =>
  Promise.all(
    TRANSLATED_LANGUAGES.map(async (lang) => ({
      lang,
      strings: ((await import(`../../../src/widget/i18n/locales/${lang}.ts`)) as { strings: Translation }).strings,
    })),
  )

describe('the table of built-in strings', () => {
  it('gives every id an English text and a note for translators', () => {
    const table = entries()
    expect(table.map((entry) => entry.id)).toEqual(Object.keys(ENGLISH))
    for (const { id, note } of table) {
      expect(note.length, `the note of ${id}`).toBeGreaterThan(15)
      const text = ENGLISH[id as keyof typeof ENGLISH]
      for (const form of typeof text === 'string' ? [text] : Object.values(text)) expect(form.trim(), `the English of ${id}`).not.toBe('')
    }
  })

  it('has a bundled translation for each language the protocol lists, and no other', () => {
    expect(
      readdirSync(resolve(I18N, 'locales'))
        .map((file) => file.replace(/\.ts$/, ''))
        .sort(),
    ).toEqual([...TRANSLATED_LANGUAGES].sort())
  })

  it('is translated whole in every bundled language: every id, its marks, and the plural forms the language has', async () => {
    for (const { lang, strings } of await translations()) {
      expect(Object.keys(strings).sort(), lang).toEqual(Object.keys(ENGLISH).sort())
      for (const [id, english] of Object.entries(ENGLISH)) {
        const text = strings[id as keyof Translation]
        expect(marks(text), `${lang} ${id}`).toEqual(marks(english))
        if (typeof english === 'string') {
          expect(typeof text, `${lang} ${id}`).toBe('string')
          expect((text as string).trim(), `${lang} ${id}`).not.toBe('')
        } else {
          // Arabic has six forms, Hebrew three, Japanese one: each is there, besides `other`.
          const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories
          expect(Object.keys(text).sort(), `${lang} ${id}`).toEqual([...categories].sort())
        }
      }
    }
  })
})
