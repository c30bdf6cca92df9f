export { App, type AppProps } from './app'
export { BASE_CSS, canAdoptSheets, css } from './styles'
export { themeLayout, type ThemeLayout } from './theme/theme-layout'
