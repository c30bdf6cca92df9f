export { App, type AppProps } from './app'
export { BASE_CSS } from './styles'
export { SYSTEM_FONT_STACK, fontRequest, type FontRequest } from './theme/font'
export { themeLayout, type ThemeLayout } from './theme/theme-layout'
