export * from './layout-document';
export { FONT_FILES } from './fonts';
