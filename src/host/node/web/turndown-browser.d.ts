// The browser build of Turndown has the Node build's API (see page-markdown.ts for why it is used).
declare module 'turndown/lib/turndown.browser.cjs.js' {
  import TurndownService from 'turndown';
  export default TurndownService;
}
